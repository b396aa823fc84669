import helmet from 'helmet';

/**
 * The policy of the gateway's pages (the admin portal, the API reference at /docs): each loads its own
 * scripts and styles only, no inline script or style element, nothing from another origin, and talks to
 * the gateway only. Styles set by script through the CSSOM (React's `style` prop, which both pages' libraries
 * use) are not covered by style-src, so their static stylesheets are all they need.
 */
export const strictPageCsp = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    manifestSrc: ["'self'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
  },
});
