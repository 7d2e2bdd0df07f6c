import { z } from 'zod';
import { readJson, route, uuidParam } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { deleteFactAsStaff, editFactAsStaff, reasonSchema } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** PATCH { content, reason }: edits any user's fact as staff (the correction rules apply; audited with the reason). */
export const PATCH = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  const id = uuidParam((await params).id, 'Fact');
  const { content, reason } = await readJson(request, reasonSchema.extend({ content: z.string().trim().min(1, 'must not be empty').max(2000) }).strict());
  return Response.json({ fact: await editFactAsStaff({ user, request }, id, content, reason) });
});

/** DELETE { reason }: deletes any user's fact as staff (everywhere, as the user's own delete does; audited). */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  const id = uuidParam((await params).id, 'Fact');
  const { reason } = await readJson(request, reasonSchema);
  return Response.json(await deleteFactAsStaff({ user, request }, id, reason));
});
