import { API_VERSION_LIST } from '@wms/platform';

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

/**
 * GET /docs/changelog: the dated versions, what each changed and how long each is supported, from the
 * versions' settings in code (docs/changelog.md says the same at length). A deprecated version's answers link
 * here with `Link: <…>; rel="deprecation"`.
 */
export const CHANGELOG_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>WMS integration API: dated versions</title></head>
  <body>
    <h1>Dated versions of the integration API</h1>
    <p>Send <code>Wms-Version: &lt;date&gt;</code> to choose a version for one request; a key and a webhook
    subscription each carry their own (<code>apiVersion</code>). Each version is supported at least 24 months
    after the next one ships.</p>
${[...API_VERSION_LIST]
  .reverse()
  .map(
    (spec) => `    <h2 id="${spec.version}">${spec.version}</h2>
    <ul>${spec.changes.map((change) => `<li><b>${escape(change.name)}</b>: ${escape(change.description)}</li>`).join('') || '<li>The first dated version: the shapes as they were.</li>'}</ul>
    ${spec.deprecatedAt ? `<p>Deprecated since ${spec.deprecatedAt}; supported until ${spec.sunsetAt}.</p>` : '<p>Current.</p>'}`,
  )
  .join('\n')}
  </body>
</html>
`;
