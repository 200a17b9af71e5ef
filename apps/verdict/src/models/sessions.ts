/** POST /v1/sessions: the session cookie is in Set-Cookie; the body says when it ends. */
export interface SessionCreated {
  /** ISO 8601; one hour after creation (the cookie's Max-Age), earlier if the key is revoked or expires */
  expires_at: string;
}
