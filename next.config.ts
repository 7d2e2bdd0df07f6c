import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // postgres.js is a Node library with its own connection pool; keep it out of the bundle.
  serverExternalPackages: ['postgres'],
  // forbidden() and unauthorized() from next/navigation (the staff console's 403 and 401 pages).
  experimental: { authInterrupts: true },
};

export default nextConfig;
