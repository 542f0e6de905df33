// runCli runs leadctl in the test process now; this name stays for tests written before it did.
export { runCli as runInProcess } from './cli.js';
