export { default } from './ImportsPage';
