import { runMain } from '@arbiter/http';
import { loadLedgerConfig } from './config';
import { startLedger } from './server';

runMain('ledger', () => loadLedgerConfig(), startLedger);
