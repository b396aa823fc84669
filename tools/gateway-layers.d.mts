/** The drawing of the gateway's folders (tools/gateway-layers.mjs). */
export declare const ARCHITECTURE_FILE: string;
export declare const START_MARKER: string;
export declare const END_MARKER: string;
export declare const LAYERS: string[];
export declare function gatewayImports(): Array<[from: string, to: string]>;
export declare function renderDrawing(imports: Array<[from: string, to: string]>): string;
export declare function withDrawing(text: string, drawing: string): string;
export declare function generateArchitecture(): string;
