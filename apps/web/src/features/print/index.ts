// The print feature's public entry point: other features import only from here.
export { PrintedApplication } from './components/service-print';
