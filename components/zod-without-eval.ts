import { z } from 'zod';

// Zod 4 probes for eval (`Function('')`) to compile faster object parsers. The app's CSP has no
// 'unsafe-eval', so in the browser the probe fails (harmlessly) and Chromium reports a violation.
// The browser parses little with zod (the AI SDK's stream chunks): skip the probe there.
if (typeof window !== 'undefined') z.config({ jitless: true });
