// The console's entry (docs/console.md): reads the session, then renders the shell into #app.
import { render } from 'preact';
import { App } from './app';
import { startRouter } from './router';

startRouter();
const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
