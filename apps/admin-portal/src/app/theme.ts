import { createTheme } from '@mantine/core';

/**
 * The default Mantine theme: its CSS variables ship in the static stylesheet, so the provider need not
 * inject a style element (the page's Content-Security-Policy allows none). Colours are adjusted in app.css.
 */
export const theme = createTheme({});
