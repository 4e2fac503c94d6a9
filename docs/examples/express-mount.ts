// PUBLIC_URL=http://localhost:3000/checkout PORT=3000 node --import tsx express-mount.ts
import { createCheckout } from '@crypto-checkout/backend';
import { getRequestListener } from '@hono/node-server';
import express from 'express';

const checkout = await createCheckout();
const app = express();
// Before any body parser: the checkout reads the body as sent (webhook signatures are over its exact bytes).
app.use('/checkout', getRequestListener(checkout.fetch));
app.use(express.json());
app.post('/your/own/route', (req, res) => {
  res.json({ yours: req.body });
});
app.listen(Number(process.env.PORT ?? 3000));
