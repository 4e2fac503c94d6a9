// app/checkout/[...path]/route.ts in Next.js, with PUBLIC_URL=https://shop.example/checkout
import { createCheckout } from '@crypto-checkout/backend';

const checkout = await createCheckout();
// Who sent the request (per-client limits, the audit log). Next.js gives a route handler no connection address:
// the proxy in front of it (Vercel, or HAProxy/nginx before `next start`) writes the address it saw last in
// X-Forwarded-For. With nothing in front that header is the client's own: leave clientAddress out.
const clientAddress = (request: Request) => request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
export const GET = (request: Request) => checkout.fetch(request, { clientAddress: clientAddress(request) });
export const POST = GET;
// Bun: Bun.serve({ fetch: (request, server) => checkout.fetch(request, { clientAddress: server.requestIP(request)?.address }) })
// Deno: Deno.serve((request, info) => checkout.fetch(request, { clientAddress: info.remoteAddr.hostname }))
