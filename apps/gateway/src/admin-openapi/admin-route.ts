/** The admin route's declaration lives with the routes (routes/admin-route.ts); the remaining tables read it here. */
export * from '../routes/admin-route.js';
