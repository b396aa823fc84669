/** Where the admin API lives: the base of its routes and its OpenAPI document, for every folder that names them. */
export const ADMIN_BASE_PATH = '/api/v1';
export const ADMIN_OPENAPI_PATH = `${ADMIN_BASE_PATH}/openapi.json`;
