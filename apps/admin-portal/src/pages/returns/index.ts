export { default, default as ReturnsPage } from './ReturnsPage';
export { default as ReturnDetailPage } from './ReturnDetailPage';
