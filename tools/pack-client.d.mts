/** The typed client's packing (tools/pack-client.mjs). */
export declare const CLIENT_DIR: string;
export declare function packClient(options?: { destination?: string }): Promise<string>;
export declare function runNpm(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }>;
