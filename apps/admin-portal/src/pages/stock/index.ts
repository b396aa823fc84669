export { default } from './StockHistoryPage';
