/** The test tiers (tools/test-tiers.mjs). */
export declare const SPEC_PATTERNS: string[];
export declare const E2E_PATTERN: string;
export declare function specFilesOnDisk(): string[];
export declare function defaultTierSpecs(): string[];
export declare function needsAService(file: string): boolean;
export declare function unitTierSpecs(): string[];
