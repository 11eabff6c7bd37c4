// The lookup module's public entry point: other modules and boot/ import only from here.
export { createAddressProvider } from './address-providers';
export {
  IMPORT_FORMATS,
  ImportFormatError,
  formatImportReport,
  importLookupCsv,
  seedLookupSamples,
} from './lookup-import';
export { lookupRoutes } from './lookup-routes';
export { createLookupService } from './lookup-service';
export {
  lookupHighSchools,
  lookupColleges,
  lookupAddresses,
  lookupWords,
  lookupVocabulary,
} from './schema';
