import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema folder and applied by the server at start-up (src/db/migrate.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema',
  out: './drizzle',
});
