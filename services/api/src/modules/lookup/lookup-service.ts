import type { LookupCategory, LookupItem, LookupRecord } from '@admissions/api-contract';
import type { Database } from '../../platform/db/connect';
import type { AddressProvider } from './address-providers';
import { fetchSchool, searchSchools } from './school-lookup';

export interface LookupService {
  search(category: LookupCategory, text: string, limit: number): Promise<LookupItem[]>;
  fetch(category: LookupCategory, id: string): Promise<LookupRecord | null>;
}

export function createLookupService(deps: {
  database: Database;
  addressProvider: AddressProvider;
}): LookupService {
  const { database, addressProvider } = deps;
  return {
    search(category, text, limit) {
      return category === 'address'
        ? addressProvider.search(text, limit)
        : searchSchools(database, category, text, limit);
    },
    fetch(category, id) {
      return category === 'address'
        ? addressProvider.fetch(id)
        : fetchSchool(database, category, id);
    },
  };
}
