import { runMain } from '@arbiter/http';
import { loadVerdictConfig } from './config';
import { startVerdict } from './server';

runMain('verdict', () => loadVerdictConfig(), startVerdict);
