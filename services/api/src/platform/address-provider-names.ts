/** ADDRESS_PROVIDER values (config.ts reads it; address-providers.ts implements them). */
export const ADDRESS_PROVIDERS = ['zipcodes', 'database', 'none'] as const;
export type AddressProviderName = (typeof ADDRESS_PROVIDERS)[number];
