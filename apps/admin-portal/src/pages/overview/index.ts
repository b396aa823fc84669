export { default } from './OverviewPage';
