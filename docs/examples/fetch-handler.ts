// app/checkout/[...path]/route.ts in Next.js, with PUBLIC_URL=https://shop.example/checkout
import { createCheckout } from '@crypto-checkout/backend';

const checkout = await createCheckout();
export const GET = (request: Request) => checkout.fetch(request);
export const POST = GET;
// Bun: Bun.serve({ fetch: checkout.fetch })   Deno: Deno.serve(checkout.fetch)
