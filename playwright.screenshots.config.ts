import { defineConfig } from '@playwright/test';
import config from './playwright.config';

// `npm run screenshots`: the pictures of e2e/screenshots/, on the same server as the e2e suite, kept
// out of it (`npx playwright test` only runs e2e/**/*.spec.ts).
export default defineConfig({ ...config, testDir: 'e2e/screenshots', testMatch: '*.shots.ts' });
