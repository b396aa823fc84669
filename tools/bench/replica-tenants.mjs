// The replica case's second question: with reads following each tenant's writes, how many reads still reach
// the replica while one tenant writes steadily and another only reads? Per-tenant positions must send the
// writing tenant's reads to wait (or to the primary), never every tenant's.

/** One item upsert of the writing tenant (50 SKUs in turn). */
async function writeItem(base, headers, n) {
  const response = await fetch(`${base}/items`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ sku: `BENCH-W-${n % 50}`, name: `written ${n}`, baseUomCode: 'EA' }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`the writing tenant's write answered ${response.status}`);
}

/** Items written one after another by the writing tenant, for as long as the reads run. */
async function writeSteadily(base, headers, running) {
  let written = 0;
  for (; running(); written += 1) await writeItem(base, headers, written);
  return written;
}

/** Each `pool reason` count's growth between two scrapes. */
function growth(before, after) {
  return Object.fromEntries(Object.keys(after).map((name) => [name, after[name] - (before[name] ?? 0)]));
}

function replicaShare(reads) {
  const total = Object.values(reads).reduce((sum, n) => sum + n, 0);
  const onReplica = Object.entries(reads)
    .filter(([name]) => name.startsWith('replica '))
    .reduce((sum, [, n]) => sum + n, 0);
  return { reads: total, 'on replica': onReplica, share: total ? `${((100 * onReplica) / total).toFixed(1)}%` : '-' };
}

/**
 * Two runs against the gateway reading from the replica, each while a tenant of its own writes items one after
 * another: the reads of a tenant that only reads, then the writing tenant's own reads. Prints how many of each
 * reached the replica, and why the others did not (wms_db_reads_total by pool and reason).
 */
export async function readsWhileOneTenantWrites({
  services,
  port,
  token,
  loadgen,
  reader,
  seconds,
  connections,
  scrape,
}) {
  const code = `BW${process.pid}`;
  const tenant = await services.tenants.create({ code, name: 'Bench writing tenant' });
  const writer = await services.apiKeys.create(
    { name: 'replica bench writer', scopes: ['read', 'write'], tenantId: tenant.id },
    null,
  );
  const base = `http://127.0.0.1:${port}/api/v1/integration/v1`;
  const writerHeaders = { 'x-api-key': writer.rawKey, 'content-type': 'application/json' };
  await writeItem(base, writerHeaders, 0);
  const rows = [];
  const runs = [
    { who: 'a tenant that only reads', key: reader, url: `${base}/stock?sku=BENCH-LOT&warehouseCode=MAIN` },
    { who: 'the writing tenant', key: writer.rawKey, url: `${base}/stock?sku=BENCH-W-0` },
  ];
  for (const run of runs) {
    const before = (await scrape(port, token)).reads;
    let writing = true;
    const writes = writeSteadily(base, writerHeaders, () => writing);
    const result = await loadgen.call({
      options: { url: run.url, headers: { 'x-api-key': run.key }, connections, duration: seconds },
    });
    writing = false;
    const written = await writes;
    const reads = growth(before, (await scrape(port, token)).reads);
    rows.push({
      'whose reads': run.who,
      'writes meanwhile': written,
      ...replicaShare(reads),
      'non-2xx': result.non2xx,
      why: Object.entries(reads)
        .filter(([, n]) => n > 0)
        .map(([name, n]) => `${name}: ${n}`)
        .join(', '),
    });
  }
  console.log(`while one tenant writes items one after another (${seconds} s, ${connections} connections of reads):`);
  console.table(rows);
}
