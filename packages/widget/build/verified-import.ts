// The one function the script-tag bundle loads its chunks with (build/pin-chunks.ts), as source text: the loader
// holds it (build/bundle-entry.ts) and leaves it for the chunks.
/**
 * `(base, chain)`: `chain` is "file hash file hash …" (a SHA-384 in base64, without its `sha384-`), the files a
 * chunk needs that are not running yet, leaves first, the chunk last. Each file runs from a
 * `<script type="module" integrity crossorigin>`, one after the other: the browser's SRI check refuses changed
 * bytes, and a file is asked for only once what it imports is in the module map, verified (WebKit fetches again,
 * unverified, a static import whose own verified load failed). Then `import()` hands over the chunk from the
 * module map (keyed by URL), never fetched again. A refused file rejects with "INTEGRITY" and a console line
 * naming it, when the same URL answers without SRI (its bytes are there but differ); else with 0 (the network).
 * Under `require-trusted-types-for 'script'` the URLs go through the `crypto-checkout` policy, which takes only
 * the bundle's own file names; the loader makes it and the function once a page, and the chunks find the function
 * where the loader left it (`verifiedImportKey`), so that a page names the policy once.
 */
export const verifiedImport = `((t,d)=>(b,l)=>{let a=l.split(" "),p=Promise.resolve();for(let i=0;i<a.length;i+=2){let u=new URL(a[i],b).href,h=a[i+1];p=p.then(()=>new Promise((y,n)=>{let e=d.createElement("script");e.type="module";e.crossOrigin="anonymous";e.integrity="sha384-"+h;e.onload=()=>y(e.remove());e.onerror=()=>{e.remove();fetch(u).then(r=>r.ok&&(console.error("crypto-checkout: "+u+" fails its integrity check: not run"),"INTEGRITY"),()=>0).then(n)};e.src=t?t.createScriptURL(u):u;d.head.append(e)}))}return p.then(()=>import(new URL(a[a.length-2],b).href))})(self.trustedTypes?.createPolicy("crypto-checkout",{createScriptURL:u=>/\\/crypto-checkout-[\\w-]+\\.js$/.test(u)?u:""}),document)`;

/**
 * Where the loader leaves the function for the chunks (`document[Symbol.for('crypto-checkout')]`, set once a
 * page: a second loader keeps the first's, so the policy is made once): a symbol, not a global name.
 */
export const verifiedImportKey = 'document[Symbol.for("crypto-checkout")]';
