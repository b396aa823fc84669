/** The preferences requests and bulk entries are validated with: every bad path reported, unknown keys refused. */
export const VALIDATION_PREFERENCES = {
  abortEarly: false,
  allowUnknown: false,
  stripUnknown: false,
  convert: true,
} as const;
