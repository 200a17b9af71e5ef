export { iocContainer } from '@arbiter/http';
