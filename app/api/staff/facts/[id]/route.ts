import { otherMethods, readJson, route, uuidParam } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { deleteFactAsStaff, editFactAsStaff, reasonSchema, staffFactEditSchema } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** PATCH { content, reason }: edits any user's fact as staff (the correction rules apply; audited with the reason). */
export const PATCH = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  const id = uuidParam((await params).id, 'Fact');
  const { content, reason } = await readJson(request, staffFactEditSchema);
  return Response.json({ fact: await editFactAsStaff({ user, request }, id, content, reason) });
});

/** DELETE { reason }: deletes any user's fact as staff (everywhere, as the user's own delete does; audited). */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  const id = uuidParam((await params).id, 'Fact');
  const { reason } = await readJson(request, reasonSchema);
  return Response.json(await deleteFactAsStaff({ user, request }, id, reason));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { GET, HEAD, OPTIONS, POST, PUT } = otherMethods(['PATCH', 'DELETE']);
