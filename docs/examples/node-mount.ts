// PUBLIC_URL=http://localhost:3000 PORT=3000 node --import tsx node-mount.ts
import { createServer } from 'node:http';
import { createCheckout } from '@crypto-checkout/backend';
import { getRequestListener } from '@hono/node-server';

const checkout = await createCheckout();
createServer(getRequestListener(checkout.fetch)).listen(Number(process.env.PORT ?? 3000));
