// The load generator, in a process of its own so it never shares an event loop with what it measures.
// The parent sends one run at a time ({ id, options, body }); request bodies are built here by name,
// since functions cannot cross the process boundary. Answers { id, result } with the figures only.
import autocannon from 'autocannon';

let sequence = 0;

const item = (sku) => ({
  sku,
  name: `Bench item ${sku}`,
  baseUomCode: 'EA',
  category: 'bench',
  tracking: 'lot',
  weightKg: 1.25,
});

function order(prefix) {
  sequence += 1;
  return {
    warehouseCode: 'MAIN',
    customerCode: 'BENCH-CUST',
    referenceNo: `${prefix}-${process.pid}-${sequence}`,
    priority: 1,
    lines: [
      { lineNo: 1, sku: 'BENCH-LOT', uomCode: 'EA', qtyOrdered: 2 },
      { lineNo: 2, sku: 'BENCH-PLAIN', uomCode: 'EA', qtyOrdered: 1 },
    ],
  };
}

/** Body builders by name: each request gets a fresh body (unique references and skus). */
const bodies = {
  order: ({ prefix }) => order(prefix),
  orders: ({ prefix, size }) => ({ orders: Array.from({ length: size }, () => order(prefix)) }),
  item: ({ prefix }) => item(`${prefix}-${++sequence}`),
  items: ({ prefix, size }) => {
    const n = ++sequence;
    return { items: Array.from({ length: size }, (_, i) => item(`${prefix}-${n}-${i}`)) };
  },
};

function run(options, body, verify) {
  const requests = body
    ? [
        {
          method: 'POST',
          headers: options.headers,
          setupRequest: (request) => ({ ...request, body: JSON.stringify(bodies[body.kind](body)) }),
        },
      ]
    : undefined;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        connections: 16,
        ...options,
        ...(requests ? { requests } : {}),
        ...(verify ? { verifyBody: (text) => text.includes(verify) } : {}),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

process.on('message', async ({ id, options, body, verify }) => {
  try {
    const started = process.hrtime.bigint();
    const result = await run(options, body, verify);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    process.send({
      id,
      result: {
        total: result.requests.total,
        seconds,
        perSecond: result.requests.total / seconds,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        mismatches: result.mismatches,
      },
    });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true });
