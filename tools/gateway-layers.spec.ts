import { readFileSync } from 'node:fs';
import { ARCHITECTURE_FILE, LAYERS, gatewayImports, renderDrawing, withDrawing } from './gateway-layers.mjs';

describe("the drawing of the gateway's folders", () => {
  it('in docs/architecture.md is what tools/gateway-layers.mjs draws from the imports (run it after one changes)', () => {
    const written = readFileSync(ARCHITECTURE_FILE, 'utf8');

    expect(written).toBe(withDrawing(written, renderDrawing(gatewayImports())));
  });

  it('has no arrow running up: each part imports only parts below it', () => {
    const imports = gatewayImports();

    const upward = imports.filter(([from, to]) => !LAYERS.includes(to) || LAYERS.indexOf(to) >= LAYERS.indexOf(from));

    expect(imports.length).toBeGreaterThan(0);
    expect(upward.map(([from, to]) => `${from} → ${to}`)).toEqual([]);
  });

  it('draws every part of the gateway that imports or is imported', () => {
    const parts = new Set(gatewayImports().flat());

    expect([...parts].filter((part) => !LAYERS.includes(part))).toEqual([]);
  });
});
