import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // One schema file per module: each table has one owner (ARCHITECTURE.md).
  schema: './src/modules/*/schema.ts',
  out: './drizzle',
});
