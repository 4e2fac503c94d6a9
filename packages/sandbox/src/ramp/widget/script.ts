/**
 * The hosted ramp widget's browser script, reading its inputs from the page's `#config` JSON: it walks the steps
 * (amount, email, payment, confirmation), re-quotes and creates the order through the widget's JSON routes, and
 * speaks the SWAPPED_* postMessage protocol (docs/upstream.md#postmessage) with the embedder, plus `SWAPPED_RESIZE`.
 * Plain ES2017 so it runs in every browser that can embed the widget.
 */
export const WIDGET_SCRIPT = `
(function () {
  var cfg = JSON.parse(document.getElementById('config').textContent);
  var $ = function (id) { return document.getElementById(id); };
  var originOf = function (url) { try { return url ? new URL(url).origin : null; } catch (e) { return null; } };
  // The embedder is not known for sure: the redirect target's origin first, then the referrer, then responseUrl.
  var target = originOf(cfg.redirectUrl) || originOf(document.referrer) || originOf(cfg.responseUrl);
  function post(type, data, sensitive) {
    if (window.parent === window) return;
    var origin = target || (sensitive ? null : '*');
    if (!origin) return;
    var message = data === undefined ? { type: type } : { type: type, data: data };
    window.parent.postMessage(message, origin);
  }
  var order = null;
  var steps = ['EMPTY', 'LOGIN_EMAIL', 'PAYMENT', 'ORDER_CONFIRMATION'];
  function show(step) {
    steps.forEach(function (s) { $('step-' + s).hidden = s !== step; });
    post('SWAPPED_NAVIGATION', { step: step });
    var focus = document.querySelector('#step-' + step + ' [data-autofocus]');
    if (focus) focus.focus();
  }
  function fiat(n) { return Number(n).toFixed(2) + ' ' + cfg.fiat; }
  function crypto(n) { return n + ' ' + cfg.symbol; }
  function render(q) {
    if (cfg.type === 'buy') {
      $('receive').textContent = crypto(q.crypto_amount);
      $('fee').textContent = fiat(q.processing_fee);
      $('network-fee').textContent = fiat(q.network_fee_local);
      $('total').textContent = fiat(q.fiat_amount_incl_fees_local);
      $('pay').textContent = 'Pay ' + fiat(q.fiat_amount_incl_fees_local) + ' (simulated card)';
    } else {
      $('receive').textContent = fiat(q.fiat_amount_excl_fees_local);
      $('fee').textContent = fiat(q.processing_fee);
      $('network-fee').textContent = crypto(q.network_fee);
      $('total').textContent = fiat(q.fiat_amount_incl_fees_local);
    }
    $('price').textContent = '1 ' + cfg.symbol + ' = ' + fiat(q.crypto_unit_price);
    $('markup').textContent = fiat(q.markup_fiat_value);
  }
  function fail(message) {
    $('error').textContent = message;
    $('pay-error').textContent = message;
    post('SWAPPED_ERROR', { message: message });
  }
  function call(path, body) {
    return fetch(cfg.prefix + path, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {})
    }).then(function (response) {
      return response.json().catch(function () { return { success: false, message: 'Unexpected answer (' + response.status + ')' }; });
    }).then(function (body) {
      if (!body.success) throw new Error(body.message || 'Request failed');
      return body.data;
    });
  }
  var timer = null;
  function requote(extra) {
    var value = Number($('amount').value);
    var body = extra || {};
    if (!(value > 0)) { $('continue').disabled = true; $('error').textContent = 'Enter an amount'; return; }
    body[cfg.type === 'buy' ? 'fiatAmount' : 'cryptoAmount'] = value;
    return call('/sessions/' + cfg.session + '/quote', body).then(function (q) {
      $('error').textContent = ''; $('continue').disabled = false; render(q);
    }, function (e) { $('continue').disabled = true; $('error').textContent = e.message; });
  }
  $('amount').addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(requote, 300); });
  function createOrder(email) {
    var body = { email: email };
    body[cfg.type === 'buy' ? 'fiatAmount' : 'cryptoAmount'] = Number($('amount').value);
    return call('/sessions/' + cfg.session + '/orders', body).then(function (data) {
      order = data.order;
      render(data.quote);
      post('SWAPPED_ORDER_DATA', data.orderData, true);
      if (cfg.type === 'sell') {
        $('deposit-amount').textContent = crypto(data.quote.crypto_amount);
        $('deposit-address').textContent = data.orderData.address;
        if (data.orderData.memo) { $('deposit-memo').textContent = data.orderData.memo; $('memo-row').hidden = false; }
      }
      show('PAYMENT');
    }, function (e) { fail(e.message); });
  }
  $('amount-form').addEventListener('submit', function (event) {
    event.preventDefault();
    if (cfg.email) createOrder(cfg.email); else show('LOGIN_EMAIL');
  });
  $('email-form').addEventListener('submit', function (event) {
    event.preventDefault();
    createOrder($('email').value);
  });
  function finish(action) {
    $('pay').disabled = true; $('cancel').disabled = true;
    return call('/orders/' + order.id + '/' + action).then(function (data) {
      var done = action === 'complete';
      var payload = { order_id: data.order.id, order_status: data.order.status, order_type: cfg.type };
      if (done) post(cfg.type === 'buy' ? 'SWAPPED_TRANSACTION_SUCCESSFUL' : 'SWAPPED_WITHDRAWAL_SUCCESSFUL', payload, true);
      else post('SWAPPED_ERROR', { code: 'ORDER_CANCELLED', message: 'The order was cancelled' }, false);
      $('result-title').textContent = done ? (cfg.type === 'buy' ? 'Payment received' : 'Crypto received') : 'Order cancelled';
      $('result-title').className = done ? 'ok' : '';
      $('result-text').textContent = done
        ? (cfg.type === 'buy' ? 'Your crypto is on its way to your wallet.' : 'Your payout is being processed.')
        : 'Nothing was charged.';
      show('ORDER_CONFIRMATION');
      if (data.redirect) {
        $('redirect-note').hidden = false;
        setTimeout(function () { window.location.assign(data.redirect); }, 1500);
      }
    }, function (e) { $('pay').disabled = false; $('cancel').disabled = false; fail(e.message); });
  }
  $('pay').addEventListener('click', function () { finish('complete'); });
  $('cancel').addEventListener('click', function () { finish('cancel'); });
  $('close').addEventListener('click', function () { post('SWAPPED_CLOSE'); });
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || !event.data || typeof event.data.type !== 'string') return;
    if (event.data.type === 'SWAPPED_FOCUS') $('amount').focus();
    if (event.data.type === 'SWAPPED_METHOD' && cfg.type === 'buy' && typeof event.data.method === 'string') {
      requote({ method: event.data.method });
    }
  });
  // The page's height, so the embedder can size its frame to it: {type, height} as the payment page posts it,
  // to the embedder's origin only (never '*'), whenever it changes (each step has its own height).
  var last = 0;
  function resize() {
    var height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last || !target || window.parent === window) return;
    last = height;
    window.parent.postMessage({ type: 'SWAPPED_RESIZE', height: height }, target);
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(resize).observe(document.body);
  post('SWAPPED_READY');
  show('EMPTY');
})();
`;
