'use client';

import { createAuthClient } from 'better-auth/react';

/** better-auth's browser client for this app's own /api/auth routes. */
export const authClient = createAuthClient();
