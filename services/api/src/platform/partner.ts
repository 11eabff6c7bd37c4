// The institution's configuration (name, contacts, what the form asks): the built-in default,
// or PARTNER_CONFIG_FILE merged over it.
import { readFile } from 'node:fs/promises';
import { DEFAULT_PARTNER, mergePartnerConfig, type PartnerConfig } from '@admissions/form';
import type { Config } from './config';

export async function loadPartner(config: Config): Promise<PartnerConfig> {
  if (!config.partnerConfigFile) return DEFAULT_PARTNER;
  const raw = JSON.parse(await readFile(config.partnerConfigFile, 'utf8')) as unknown;
  return mergePartnerConfig(DEFAULT_PARTNER, raw);
}
