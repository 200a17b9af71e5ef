export { expressAuthentication } from '@arbiter/auth';
