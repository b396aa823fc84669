import { API_VERSION_LIST, deprecationOf, type ApiVersionSpec, type VersionPolicy } from '@wms/platform';

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

function statusOf(spec: ApiVersionSpec, policy: VersionPolicy): string {
  const deprecation = deprecationOf(policy, spec.version);
  if (deprecation) {
    return `<p>Deprecated since ${deprecation.deprecatedAt}; supported until ${deprecation.sunsetAt}.</p>`;
  }
  return spec.version === policy.defaultVersion ? '<p>Supported; the default.</p>' : '<p>Supported.</p>';
}

/**
 * GET /docs/changelog: the dated versions, what each changed, which one a caller gets without asking and which
 * the deployment has deprecated (docs/changelog.md says the same at length). A deprecated version's answers
 * link here with `Link: <…>; rel="deprecation"`.
 */
export function changelogPage(policy: VersionPolicy): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>WMS integration API: dated versions</title></head>
  <body>
    <h1>Dated versions of the integration API</h1>
    <p>Send <code>Wms-Version: &lt;date&gt;</code> to choose a version for one request; a key and a webhook
    subscription each carry their own (<code>apiVersion</code>, default ${policy.defaultVersion}). A version is
    deprecated only when this deployment says so, and then supported at least 24 months after the next one
    shipped.</p>
${[...API_VERSION_LIST]
  .reverse()
  .map(
    (spec) => `    <h2 id="${spec.version}">${spec.version}</h2>
    <ul>${spec.changes.map((change) => `<li><b>${escape(change.name)}</b>: ${escape(change.description)}</li>`).join('') || '<li>The first dated version: the interface&#39;s own shapes, quantities as JSON numbers.</li>'}</ul>
    ${statusOf(spec, policy)}`,
  )
  .join('\n')}
  </body>
</html>
`;
}
