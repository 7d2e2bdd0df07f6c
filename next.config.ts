import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // postgres.js is a Node library with its own connection pool; keep it out of the bundle.
  serverExternalPackages: ['postgres'],
};

export default nextConfig;
