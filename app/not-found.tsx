import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="grid min-h-dvh place-items-center bg-canvas px-6">
      <div className="max-w-sm text-center">
        <p className="text-sm font-medium text-accent">404</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Conversation not found</h1>
        <p className="mt-3 text-[15px] leading-7 text-muted">It may have been deleted, or it belongs to another session.</p>
        <Link href="/" className="mt-6 inline-flex rounded-xl bg-accent px-4 py-2 text-sm font-medium text-on-accent hover:bg-accent-hover">
          Back to your conversations
        </Link>
      </div>
    </main>
  );
}
