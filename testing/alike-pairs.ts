/** Labelled pairs of feedback reports: true duplicates and near misses that are distinct issues. `a` is filed first. */
export type PairReport = {
  type: "bug" | "feature" | "feedback";
  title: string;
  description: string;
  metadata?: { url: string };
};
export type LabelledPair = { a: PairReport; b: PairReport; same: boolean; note: string };

export const ALIKE_PAIRS: LabelledPair[] = [
  {
    a: {
      type: "bug",
      title: "Checkout button does nothing",
      description:
        "On /checkout, clicking 'Place order' after filling in the shipping form has no effect. No network request is sent and no error is displayed. Tried three times with a Visa test card.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    b: {
      type: "bug",
      title: "The place order button does not respond",
      description:
        "Filled out shipping and payment on the checkout page and pressed Place order. Nothing happens, the spinner never appears and the DevTools network tab shows no POST to /api/orders.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    same: true,
    note: "paraphrase, same button, same missing request",
  },
  {
    a: {
      type: "bug",
      title: "Checkout button misaligned on mobile",
      description:
        "On the checkout page at 375px width the Place order button overflows the card and is cut off on the right side. It still works when tapped.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    b: {
      type: "bug",
      title: "Checkout button does nothing on mobile",
      description:
        "On an iPhone 13 (Safari 17), tapping Place order on /checkout does nothing. The same cart checks out fine on desktop. No error shown.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    same: false,
    note: "same button and page: layout overflow vs unresponsive tap",
  },
  {
    a: {
      type: "bug",
      title: "Discount code rejected even though it's valid",
      description:
        "Code SPRING20 shows 'This code is not valid' at checkout although the campaign email says it's valid until May 31. Cart total is $84, above the $50 minimum.",
      metadata: { url: "https://shop.lumenwear.com/cart" },
    },
    b: {
      type: "bug",
      title: "SPRING20 promo not applying",
      description:
        "Entering SPRING20 in the promo field on the cart page returns 'This code is not valid'. Cart is over the minimum spend. The email says the offer runs through the end of May.",
      metadata: { url: "https://shop.lumenwear.com/cart" },
    },
    same: true,
    note: "same promo code, same rejection message",
  },
  {
    a: {
      type: "bug",
      title: "Promo code WELCOME10 rejected",
      description:
        "WELCOME10 says 'This code is not valid' for a first-time customer account created today. Cart is $62.",
      metadata: { url: "https://shop.lumenwear.com/cart" },
    },
    b: {
      type: "bug",
      title: "Promo code WELCOME10 applied twice",
      description:
        "Applying WELCOME10 and then refreshing the cart page applies the 10% discount a second time; the total goes from $62.00 to $50.22.",
      metadata: { url: "https://shop.lumenwear.com/cart" },
    },
    same: false,
    note: "same code: rejected vs applied twice",
  },
  {
    a: {
      type: "bug",
      title: "Prices show in USD instead of EUR",
      description:
        "On the German storefront (/de) product and category pages show prices in USD, e.g. $49.00 for the linen shirt. Cart and checkout correctly show 45,90 EUR.",
      metadata: { url: "https://shop.lumenwear.com/de/products/linen-shirt" },
    },
    b: {
      type: "bug",
      title: "Prices show in EUR instead of GBP",
      description:
        "On the UK storefront (/uk) the basket and checkout show totals in EUR (45,90 EUR) while product pages correctly show GBP 39.00. My card was charged in EUR.",
      metadata: { url: "https://shop.lumenwear.com/uk/cart" },
    },
    same: false,
    note: "different storefront, currency and surface (product page display vs checkout charge)",
  },
  {
    a: {
      type: "bug",
      title: "Cart empties after login",
      description: "I added 3 items as a guest, then signed in at checkout and the cart was suddenly empty.",
      metadata: { url: "https://shop.lumenwear.com/login" },
    },
    b: {
      type: "bug",
      title: "Guest basket items lost when signing in",
      description:
        "Items added before authenticating disappear once the user logs in. Repro: add linen shirt and socks as guest, click Sign in on the checkout step; after the redirect the basket shows 0 items.",
      metadata: { url: "https://shop.lumenwear.com/login?next=/checkout" },
    },
    same: true,
    note: "same guest-cart merge failure, low title overlap",
  },
  {
    a: {
      type: "bug",
      title: "Cart empties after login",
      description:
        "Guest cart is cleared when signing in during checkout; all items added before login are gone.",
    },
    b: {
      type: "bug",
      title: "Cart empties after 30 minutes",
      description:
        "While staying logged in, leaving the tab open for about half an hour and coming back shows an empty cart. No login or logout happened in between.",
    },
    same: false,
    note: "same title stem: login merge vs idle expiry while logged in",
  },
  {
    a: {
      type: "bug",
      title: "Checkout 500 when a gift card is in the cart",
      description:
        "If the cart contains a gift card, /checkout throws a server error page (500). Removing the gift card fixes it.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    b: {
      type: "bug",
      title: "Server error buying gift certificate",
      description:
        "Trying to purchase an e-gift certificate: clicking 'Proceed to checkout' lands on 'Oops, 500'. Regular products check out fine.",
      metadata: { url: "https://shop.lumenwear.com/cart" },
    },
    same: true,
    note: "same trigger (gift card in cart) and 500, different vocabulary",
  },
  {
    a: {
      type: "bug",
      title: "Checkout page 500 error",
      description: "Going to /checkout with a gift card in the cart returns a 500 error page.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    b: {
      type: "bug",
      title: "Checkout page 500 error",
      description:
        "Proceeding to checkout from the cart shows 'HTTP 500 Internal Server Error' whenever the shipping country is Canada.",
      metadata: { url: "https://store.brightkettle.com/checkout" },
    },
    same: false,
    note: "identical title, different store host and trigger",
  },
  {
    a: {
      type: "bug",
      title: "Apple Pay button missing on checkout",
      description:
        "On iPhone Safari the Apple Pay option no longer appears on the checkout page since Tuesday. My Wallet has cards.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    b: {
      type: "bug",
      title: "No Apple Pay option anymore",
      description:
        "Checkout on my iPhone only offers card and PayPal. Apple Pay used to be there until a few days ago.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    same: true,
    note: "same missing payment method, terse paraphrase",
  },
  {
    a: {
      type: "bug",
      title: "Apple Pay button missing on checkout",
      description:
        "On iPhone Safari the Apple Pay option no longer appears on the checkout page since Tuesday. Wallet has cards.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    b: {
      type: "bug",
      title: "Google Pay button missing on checkout",
      description:
        "Google Pay is not offered in Chrome on Android. Console shows 'Google Pay merchant ID not configured for production'. Apple Pay on iPhone is fine.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    same: false,
    note: "different wallet and platform, config error",
  },
  {
    a: {
      type: "bug",
      title: "Android home widget doesn't refresh balance",
      description: "The Tidewater balance widget shows yesterday's balance until I open the app.",
    },
    b: {
      type: "bug",
      title: "Wrong tax rate for Quebec orders",
      description: "Orders shipping to Quebec are charged 5% GST only; QST 9.975% is missing.",
      metadata: { url: "https://shop.lumenwear.com/checkout" },
    },
    same: false,
    note: "unrelated products and issues",
  },
  {
    a: {
      type: "bug",
      title: "Checkout broken in Hebrew",
      description:
        "With the site in Hebrew the order summary mirrors incorrectly: the shekel sign and amount swap sides and the quantity column overlaps the product name.",
      metadata: { url: "https://shop.lumenwear.com/he/checkout" },
    },
    b: {
      type: "bug",
      title: "Checkout broken in Arabic",
      description:
        "Arabic users can't pay: the card field only accepts Western digits, and the default Arabic keyboard types Eastern Arabic numerals, so validation fails.",
      metadata: { url: "https://shop.lumenwear.com/ar/checkout" },
    },
    same: false,
    note: "different locale, RTL layout vs digit validation",
  },
  {
    a: {
      type: "bug",
      title: "Card number field rejects Arabic-Indic digits",
      description:
        "With the phone keyboard set to Arabic, typing the card number enters ٤٢٤٢... and the field says 'Invalid card number'.",
      metadata: { url: "https://shop.lumenwear.com/ar/checkout" },
    },
    b: {
      type: "bug",
      title: "Checkout broken in Arabic",
      description:
        "Arabic users can't pay: the card field only accepts Western digits, and the default Arabic keyboard types Eastern Arabic numerals, so validation fails.",
      metadata: { url: "https://shop.lumenwear.com/ar/checkout" },
    },
    same: true,
    note: "same digit validation bug, generic vs specific title",
  },
  {
    a: {
      type: "bug",
      title: "Order confirmation email shows wrong shipping address",
      description:
        "I changed the shipping address during checkout; the order page has the new address but the confirmation email lists my old saved address.",
      metadata: { url: "https://shop.lumenwear.com/account/orders/LW-88213" },
    },
    b: {
      type: "bug",
      title: "Confirmation mail has old address",
      description:
        "Order LW-88240: edited delivery address at checkout step 2. Order details show the edited one, yet the 'Thanks for your order' email still has my default address.",
    },
    same: true,
    note: "same stale address in confirmation email",
  },
  {
    a: {
      type: "bug",
      title: "Size guide modal won't close on iPhone",
      description:
        "On product pages, opening Size guide on iPhone Safari and tapping the X does nothing; only reloading the page gets rid of it.",
      metadata: { url: "https://shop.lumenwear.com/products/linen-shirt" },
    },
    b: {
      type: "bug",
      title: "Size guide shows wrong measurements for EU sizes",
      description: "The size guide lists EU 40 chest as 96 cm and EU 42 as 94 cm; the numbers look swapped.",
      metadata: { url: "https://shop.lumenwear.com/products/linen-shirt" },
    },
    same: false,
    note: "same modal: close button vs wrong content",
  },
  {
    a: {
      type: "bug",
      title: "Size guide modal won't close on iPhone",
      description:
        "On product pages, opening Size guide on iPhone Safari and tapping the X does nothing; only reloading gets rid of it.",
      metadata: { url: "https://shop.lumenwear.com/products/linen-shirt" },
    },
    b: {
      type: "bug",
      title: "can't dismiss size chart on mobile",
      description:
        "the X on the size chart popup is unresponsive on my iphone 14 (safari). stuck until i refresh.",
      metadata: { url: "https://shop.lumenwear.com/products/wool-socks" },
    },
    same: true,
    note: "same modal close bug, lowercase, different product page",
  },
  {
    a: {
      type: "bug",
      title: "CSV export fails in Safari",
      description:
        "In Reports > Transactions, clicking Export CSV in Safari 17.4 downloads a 0-byte file named 'Unknown'. Works fine in Firefox.",
      metadata: { url: "https://app.ledgerly.io/reports/transactions" },
    },
    b: {
      type: "bug",
      title: "CSV export fails in Chrome",
      description:
        "Export CSV on Reports > Transactions in Chrome 124 shows the toast 'Export failed: 413 Payload Too Large' for ranges over 90 days. Shorter ranges work.",
      metadata: { url: "https://app.ledgerly.io/reports/transactions" },
    },
    same: false,
    note: "different browser and cause: empty download vs 413 on long ranges",
  },
  {
    a: {
      type: "bug",
      title: "CSV export downloads empty file in Safari",
      description:
        "Reports > Transactions > Export CSV produces a 0-byte file called 'Unknown' in Safari 17.4 on macOS 14. Firefox works.",
      metadata: { url: "https://app.ledgerly.io/reports/transactions" },
    },
    b: {
      type: "bug",
      title: "Safari: exported transactions CSV is blank",
      description:
        "Exporting transactions from the reports page on Safari gives me an empty file with no extension. The same export in Chrome has 1,240 rows.",
      metadata: { url: "https://app.ledgerly.io/reports/transactions" },
    },
    same: true,
    note: "same browser and 0-byte symptom, reworded",
  },
  {
    a: {
      type: "feature",
      title: "Export reports to Excel (.xlsx)",
      description:
        "Please add an XLSX option next to Export CSV on Reports so accountants don't have to reformat dates and currency columns.",
      metadata: { url: "https://app.ledgerly.io/reports" },
    },
    b: {
      type: "bug",
      title: "Export to Excel produces corrupted file",
      description:
        "The new Export XLSX option on Reports > P&L downloads a file that Excel says is corrupted and needs repair. CSV export of the same report works.",
      metadata: { url: "https://app.ledgerly.io/reports/pnl" },
    },
    same: false,
    note: "feature request vs bug in the shipped feature",
  },
  {
    a: {
      type: "bug",
      title: "Invoice PDF shows wrong tax total",
      description:
        "Invoice INV-2041 has two line items at 20% VAT; the PDF footer shows VAT 0.00 while the web view shows 38.40.",
      metadata: { url: "https://app.ledgerly.io/invoices/INV-2041" },
    },
    b: {
      type: "bug",
      title: "VAT missing in generated invoice PDF",
      description:
        "Downloaded PDF invoices show VAT as 0.00 even though the invoice page shows the correct VAT amount. Seen on INV-2041 and INV-2043.",
      metadata: { url: "https://app.ledgerly.io/invoices" },
    },
    same: true,
    note: "same PDF VAT bug; second report adds another invoice",
  },
  {
    a: {
      type: "bug",
      title: "Invoice PDF shows wrong tax total",
      description: "The PDF for INV-2041 shows VAT 0.00 but the web view shows 38.40.",
      metadata: { url: "https://app.ledgerly.io/invoices/INV-2041" },
    },
    b: {
      type: "bug",
      title: "Invoice PDF shows wrong due date",
      description:
        "INV-2050 has payment terms Net 30 and was issued 3 March; the PDF says Due 3 March instead of 2 April. Web view is correct.",
      metadata: { url: "https://app.ledgerly.io/invoices/INV-2050" },
    },
    same: false,
    note: "same PDF, different wrong field",
  },
  {
    a: {
      type: "bug",
      title: "Bank sync failing for Chase",
      description:
        "The Chase connection shows 'Reconnect required' every morning since Tuesday; reconnecting works for a day.",
      metadata: { url: "https://app.ledgerly.io/banking/feeds" },
    },
    b: {
      type: "bug",
      title: "Bank sync failing for Wells Fargo",
      description:
        "The Wells Fargo feed has not imported transactions since April 2. Status says 'Connected' and last sync succeeded, but 0 new transactions.",
      metadata: { url: "https://app.ledgerly.io/banking/feeds" },
    },
    same: false,
    note: "different bank, different symptom",
  },
  {
    a: {
      type: "bug",
      title: "Bookmarks lost after sync",
      description: "After syncing between phone and tablet, bookmarks in 'Dune' disappeared on both devices.",
    },
    b: {
      type: "bug",
      title: "Campaign A/B test winner not selected",
      description:
        "The A/B test ended 2 days ago but the winning subject line was never sent to the remaining 80%.",
    },
    same: false,
    note: "unrelated products and issues",
  },
  {
    a: {
      type: "feature",
      title: "Remember last used export format",
      description: "Each time I export it resets to CSV; please remember my choice (XLSX) per user.",
      metadata: { url: "https://app.ledgerly.io/reports" },
    },
    b: {
      type: "bug",
      title: "Export format no longer remembered",
      description:
        "Since last week's update the export dialog resets to CSV again; it used to remember XLSX.",
      metadata: { url: "https://app.ledgerly.io/reports" },
    },
    same: false,
    note: "original feature request vs later regression of the shipped behaviour",
  },
  {
    a: {
      type: "bug",
      title: "Reconciled transactions revert to unmatched",
      description:
        "In bank reconciliation I match a line to an invoice payment, it turns green, then after refreshing the page it's back in Unmatched.",
      metadata: { url: "https://app.ledgerly.io/banking/reconcile" },
    },
    b: {
      type: "bug",
      title: "Bank reconciliation matches not saved",
      description:
        "Matching a bank line shows success, but the match is gone when I come back to the reconcile screen. Happened for 12 lines on the Barclays account today.",
      metadata: { url: "https://app.ledgerly.io/banking/reconcile" },
    },
    same: true,
    note: "same lost reconciliation match",
  },
  {
    a: {
      type: "bug",
      title: "Keyboard shortcut N opens new invoice while typing in search",
      description:
        "Typing a customer name containing 'n' into the invoice search box opens the New invoice form.",
      metadata: { url: "https://app.ledgerly.io/invoices" },
    },
    b: {
      type: "bug",
      title: "Keyboard shortcuts don't work on AZERTY keyboards",
      description:
        "With a French AZERTY layout, the shortcut for new bill (B) and search (/) do nothing; they work on QWERTY.",
      metadata: { url: "https://app.ledgerly.io/invoices" },
    },
    same: false,
    note: "shortcut fires in input vs shortcut not firing on a layout",
  },
  {
    a: {
      type: "bug",
      title: "Keyboard shortcut N opens new invoice while typing in search",
      description:
        "Typing a customer name containing 'n' into the invoice search box opens the New invoice form.",
      metadata: { url: "https://app.ledgerly.io/invoices" },
    },
    b: {
      type: "bug",
      title: "Typing in search creates a new invoice",
      description:
        "When I search for 'Nordic Supplies' on the invoices list, as soon as I type the N a blank invoice opens. Search field shouldn't trigger shortcuts.",
      metadata: { url: "https://app.ledgerly.io/invoices" },
    },
    same: true,
    note: "same shortcut captured inside an input",
  },
  {
    a: {
      type: "bug",
      title: "POST /v1/shipments returns 500 when address line 2 is empty",
      description:
        'Creating a shipment with address.line2 set to an empty string returns HTTP 500 {"error":"internal_error"}. Omitting the field or passing null works.',
      metadata: { url: "https://api.parcelpoint.io/v1/shipments" },
    },
    b: {
      type: "bug",
      title: "500 internal_error creating shipment with blank line2",
      description:
        "Our integration sends line2: '' for addresses without an apartment number. /v1/shipments responds 500 internal_error. Sending null avoids it. request_id req_8fd2a1.",
    },
    same: true,
    note: "same endpoint, trigger and error",
  },
  {
    a: {
      type: "bug",
      title: "POST /v1/shipments returns 500",
      description: "Creating a shipment with an empty address.line2 returns 500 internal_error.",
      metadata: { url: "https://api.parcelpoint.io/v1/shipments" },
    },
    b: {
      type: "bug",
      title: "POST /v1/shipments returns 502",
      description:
        "Intermittently, about 1 in 20 shipment creations returns 502 Bad Gateway from the load balancer after ~30s, for any payload. Retrying the same payload succeeds.",
      metadata: { url: "https://api.parcelpoint.io/v1/shipments" },
    },
    same: false,
    note: "same endpoint: deterministic 500 vs intermittent 502 gateway timeout",
  },
  {
    a: {
      type: "bug",
      title: "GET /v1/users returns 404 for existing user",
      description:
        "GET /v1/users/usr_19ab returns 404 not_found although the user shows in the dashboard and in the GET /v1/users list.",
      metadata: { url: "https://api.parcelpoint.io/v1/users/usr_19ab" },
    },
    b: {
      type: "bug",
      title: "GET /v1/orders returns 404 for existing order",
      description:
        "GET /v1/orders/ord_77c2 returns 404 not_found, but the order is listed in GET /v1/orders?status=open. Only orders created via the bulk import are affected.",
      metadata: { url: "https://api.parcelpoint.io/v1/orders/ord_77c2" },
    },
    same: false,
    note: "different resource and endpoint, bulk-import cause",
  },
  {
    a: {
      type: "bug",
      title: "Rate limit headers missing",
      description:
        "Responses from api.parcelpoint.io no longer include X-RateLimit-Remaining and X-RateLimit-Reset, so our client can't back off. Started around 2024-05-14.",
    },
    b: {
      type: "bug",
      title: "X-RateLimit-* headers not returned anymore",
      description:
        "Since mid-May the API stopped sending the rate limit headers (Remaining/Reset). Our SDK's backoff logic now just runs into 429s.",
    },
    same: true,
    note: "same missing headers",
  },
  {
    a: {
      type: "bug",
      title: "Rate limit headers missing",
      description:
        "Responses from api.parcelpoint.io no longer include X-RateLimit-Remaining and X-RateLimit-Reset, so our client can't back off.",
    },
    b: {
      type: "bug",
      title: "Rate limit reset header wrong",
      description:
        "X-RateLimit-Reset returns a value in milliseconds (1715700000000) but the docs say it's a Unix timestamp in seconds, so our client waits for ages.",
    },
    same: false,
    note: "headers missing vs header present with wrong unit",
  },
  {
    a: {
      type: "bug",
      title: "Webhook retries not happening",
      description:
        "When our endpoint returns 503, Parcelpoint never retries the shipment.delivered webhook. Docs promise 5 retries with backoff.",
    },
    b: {
      type: "bug",
      title: "Webhook delivered multiple times",
      description:
        "We receive each shipment.delivered webhook 3-4 times within a second even though our endpoint returns 200 quickly.",
    },
    same: false,
    note: "opposite webhook delivery symptoms",
  },
  {
    a: {
      type: "bug",
      title: "Paging /v1/orders returns duplicates",
      description:
        "GET /v1/orders?limit=50&cursor=... returns some orders already seen on the previous page when orders are created during pagination.",
      metadata: { url: "https://api.parcelpoint.io/v1/orders" },
    },
    b: {
      type: "bug",
      title: "Orders list: same orders appear on page 1 and page 2",
      description:
        "Paging through /v1/orders with next_cursor, we get duplicates across pages whenever new orders arrive between requests. Looks like the cursor is offset-based.",
    },
    same: true,
    note: "same pagination duplicate bug",
  },
  {
    a: {
      type: "bug",
      title: "Wishlist heart icon doesn't toggle",
      description:
        "Tapping the heart on a product card doesn't fill it and the item isn't added to the wishlist.",
      metadata: { url: "https://shop.lumenwear.com/products" },
    },
    b: {
      type: "bug",
      title: "PDF invoice missing company logo",
      description: "Uploaded our logo in Settings > Branding but generated invoice PDFs still show no logo.",
      metadata: { url: "https://app.ledgerly.io/settings/branding" },
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Pagination cursor returns duplicate items",
      description:
        "GET /v1/orders?cursor=... returns orders already seen on the previous page when new orders are created meanwhile.",
      metadata: { url: "https://api.parcelpoint.io/v1/orders" },
    },
    b: {
      type: "bug",
      title: "Pagination cursor skips items",
      description:
        "GET /v1/shipments?cursor=... skips shipments that share an identical created_at timestamp (bulk created). Total count is 14 short.",
      metadata: { url: "https://api.parcelpoint.io/v1/shipments" },
    },
    same: false,
    note: "different endpoint, duplicates vs skipped rows",
  },
  {
    a: {
      type: "bug",
      title: "UPS label barcode doesn't match tracking number",
      description:
        "Labels generated via POST /v1/labels for UPS Ground encode 1Z999...01 in the barcode while the printed tracking number is 1Z999...07. Drivers can't scan them.",
    },
    b: {
      type: "bug",
      title: "UPS labels unscannable",
      description:
        "UPS driver rejected 8 parcels today: scanning the label barcode returns a different tracking number than the one printed on it. Labels created through the API this morning.",
    },
    same: true,
    note: "same UPS barcode mismatch",
  },
  {
    a: {
      type: "bug",
      title: "Label PDF has wrong barcode for UPS",
      description:
        "UPS Ground labels encode a different tracking number in the barcode than the printed one.",
    },
    b: {
      type: "bug",
      title: "Label PDF barcode unscannable for FedEx",
      description:
        "FedEx 4x6 labels come back as an A4 PDF with the label scaled down to half size, so the barcode is too small for the handheld scanner. UPS labels are fine.",
    },
    same: false,
    note: "different carrier, page-size scaling vs wrong data",
  },
  {
    a: {
      type: "bug",
      title: "Sandbox API keys work in production",
      description:
        "A key starting pp_test_ successfully created a real, billed shipment on api.parcelpoint.io.",
    },
    b: {
      type: "bug",
      title: "Production API keys rejected in sandbox",
      description:
        "Using pp_live_ keys against sandbox.parcelpoint.io returns 401 invalid_api_key; docs say this is expected, but the error should say 'wrong environment'.",
    },
    same: false,
    note: "security bug vs error message wording on the reverse case",
  },
  {
    a: {
      type: "bug",
      title: "OpenAPI spec invalid: missing schema ShipmentRate",
      description:
        "openapi.json references #/components/schemas/ShipmentRate but that schema is not defined. openapi-generator fails.",
      metadata: { url: "https://api.parcelpoint.io/openapi.json" },
    },
    b: {
      type: "bug",
      title: "Codegen fails on Parcelpoint spec",
      description:
        "Running openapi-typescript on the published spec: Error: Can't resolve $ref '#/components/schemas/ShipmentRate'.",
    },
    same: true,
    note: "same dangling $ref in the spec",
  },
  {
    a: {
      type: "bug",
      title: "OpenAPI spec invalid: missing schema ShipmentRate",
      description: "openapi.json references #/components/schemas/ShipmentRate but the schema is not defined.",
      metadata: { url: "https://api.parcelpoint.io/openapi.json" },
    },
    b: {
      type: "bug",
      title: "OpenAPI spec lists wrong type for parcel weight",
      description:
        "In openapi.json Parcel.weight is type string, but the API returns and expects a number (grams). Generated clients send '1200' and get 422.",
      metadata: { url: "https://api.parcelpoint.io/openapi.json" },
    },
    same: false,
    note: "same spec file, different defect",
  },
  {
    a: {
      type: "bug",
      title: "App crashes when opening statements on Android",
      description:
        "Tidewater 5.2.0 on Pixel 7 (Android 14) closes immediately when tapping Accounts > Statements.",
    },
    b: {
      type: "bug",
      title: "crash on statements screen",
      description: "android app force closes as soon as i open statements. pixel 7, app version 5.2.0",
    },
    same: true,
    note: "terse lowercase duplicate",
  },
  {
    a: {
      type: "bug",
      title: "App crashes when opening statements on Android",
      description:
        "Tidewater 5.2.0 on Pixel 7 (Android 14) closes immediately when tapping Accounts > Statements.",
    },
    b: {
      type: "bug",
      title: "App crashes when opening statements on iOS",
      description:
        "On iPhone 12, iOS 17.4, Tidewater 5.2.0 crashes when a statement PDF finishes downloading, not when opening the list. The list itself loads.",
    },
    same: false,
    note: "different OS and different crash point",
  },
  {
    a: {
      type: "bug",
      title: "App crashes",
      description:
        "Tidewater crashes on launch after updating to 5.2.1 on a Samsung Galaxy S21. Reinstalling didn't help.",
    },
    b: {
      type: "bug",
      title: "App crashes",
      description:
        "The app crashes when I try to scan a cheque with the camera in Deposits. Everything else works. iPhone 14.",
    },
    same: false,
    note: "same generic title, different trigger and platform",
  },
  {
    a: {
      type: "bug",
      title: "Face ID login stopped working",
      description:
        "After updating to Tidewater 5.3.0 on iOS 17.5, the Face ID prompt never appears; I have to type my password every time. Toggling Face ID in settings doesn't help.",
    },
    b: {
      type: "feedback",
      title: "Have to enter password every time now",
      description:
        "Since the latest update the app no longer offers Face ID when I open it, it goes straight to the password field. iPhone 15, iOS 17.5.",
    },
    same: true,
    note: "bug vs feedback type, same Face ID regression",
  },
  {
    a: {
      type: "bug",
      title: "Face ID login stopped working",
      description: "After updating to Tidewater 5.3.0 on iOS 17.5, the Face ID prompt never appears.",
    },
    b: {
      type: "feature",
      title: "Support Touch ID on older iPads",
      description:
        "Please allow Touch ID for login on iPad (9th gen). Currently only password login is offered on iPad.",
    },
    same: false,
    note: "related biometric topic, feature request for another device",
  },
  {
    a: {
      type: "feature",
      title: "Bulk delete for contacts",
      description: "Let me select many contacts and delete them at once instead of one by one.",
    },
    b: {
      type: "bug",
      title: "Map tiles blurry on retina screens",
      description: "On a MacBook Pro the map looks low resolution; tiles seem to be served at 1x.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Transfer amount field accepts negative numbers",
      description:
        "In Transfers, typing -50 in the amount lets you proceed to the review screen, which then shows 'You will send -$50.00'.",
    },
    b: {
      type: "bug",
      title: "Transfer amount field rejects decimals",
      description:
        "Typing 12,50 in the transfer amount field becomes 1250 on phones set to German, because the comma decimal separator is stripped.",
    },
    same: false,
    note: "same field, missing validation vs locale parsing",
  },
  {
    a: {
      type: "bug",
      title: "Card freeze toggle doesn't persist",
      description:
        "I freeze my debit card in Cards, close the app, reopen, and the toggle shows Unfrozen again. A test purchase then went through.",
    },
    b: {
      type: "bug",
      title: "Frozen card becomes active again",
      description:
        "Freezing the card works until the app is restarted; afterwards it says Active and payments are approved. Tidewater 5.3.0, Android.",
    },
    same: true,
    note: "same freeze state lost on restart",
  },
  {
    a: {
      type: "bug",
      title: "Card freeze toggle doesn't persist",
      description: "Freezing my debit card resets to Unfrozen after reopening the app.",
    },
    b: {
      type: "feature",
      title: "Freeze card for online purchases only",
      description:
        "Would like a toggle to block online/card-not-present payments while keeping the card working in shops.",
    },
    same: false,
    note: "bug vs related feature request",
  },
  {
    a: {
      type: "bug",
      title: "skiff deploy hangs at 'Uploading build'",
      description:
        "skiff v2.8.1 on macOS: `skiff deploy` stalls forever at 'Uploading build (0%)' for projects over ~200 MB. Small projects deploy fine.",
    },
    b: {
      type: "bug",
      title: "Deploy stuck at 0% upload for large projects",
      description:
        "Running skiff deploy with a 350MB build output never gets past 0% upload. CLI 2.8.1, Ubuntu 22.04. A 40MB project uploads normally.",
    },
    same: true,
    note: "same size-dependent upload hang, different OS mentioned",
  },
  {
    a: {
      type: "bug",
      title: "skiff deploy hangs at 'Uploading build'",
      description:
        "skiff v2.8.1: `skiff deploy` stalls forever at 'Uploading build (0%)' for projects over ~200 MB.",
    },
    b: {
      type: "bug",
      title: "skiff deploy hangs at 'Waiting for health check'",
      description:
        "Upload completes, then `skiff deploy` sits at 'Waiting for health check' until the 10 min timeout, although the app answers 200 on /health. CLI 2.8.1.",
    },
    same: false,
    note: "same command hanging at a different stage",
  },
  {
    a: {
      type: "bug",
      title: "skiff login fails after upgrading to 2.9.0",
      description:
        "After `brew upgrade skiff` to 2.9.0, `skiff login` opens the browser, I approve, and the CLI prints 'Error: state mismatch'. 2.8.1 worked.",
    },
    b: {
      type: "bug",
      title: "skiff login fails on 2.7.3",
      description:
        "On skiff 2.7.3 (pinned in CI) `skiff login --token $SKIFF_TOKEN` returns 'Error: unknown flag --token'. Docs say --token is supported.",
    },
    same: false,
    note: "different version and error",
  },
  {
    a: {
      type: "bug",
      title: "skiff login: 'state mismatch' error after upgrade",
      description:
        "Version 2.9.0. Browser login completes but the terminal shows Error: state mismatch and I'm not logged in.",
    },
    b: {
      type: "bug",
      title: "Can't sign in to CLI since 2.9.0",
      description:
        "skiff login worked yesterday; after updating to 2.9.0 it fails with 'state mismatch' right after I click Authorize in the browser. Downgrading to 2.8.1 fixes it.",
    },
    same: true,
    note: "same error and version; one adds downgrade workaround",
  },
  {
    a: {
      type: "bug",
      title: "skiff logs --follow stops streaming after 60s",
      description:
        "`skiff logs --follow` silently stops printing new lines after about a minute; the process keeps running. Restarting it shows the missed lines.",
    },
    b: {
      type: "feature",
      title: "skiff logs: add --since flag",
      description:
        "Would like `skiff logs --since 1h` to fetch older logs; currently only the live tail is available.",
    },
    same: false,
    note: "bug vs feature request on the same command",
  },
  {
    a: {
      type: "bug",
      title: "skiff 3.0.0 ignores .skiffignore",
      description:
        "Files listed in .skiffignore get uploaded since 3.0.0; node_modules is uploaded, making deploys slow.",
    },
    b: {
      type: "bug",
      title: "skiff 2.9.0 ignores .skiffignore",
      description:
        "Negation patterns like !dist/keep.txt in .skiffignore are ignored on 2.9.0; plain patterns work fine.",
    },
    same: false,
    note: "different version, whole file ignored vs negation patterns only",
  },
  {
    a: {
      type: "bug",
      title: "skiff 3.0.0 ignores .skiffignore",
      description:
        "Files listed in .skiffignore get uploaded since 3.0.0; node_modules is uploaded, making deploys slow.",
    },
    b: {
      type: "bug",
      title: ".skiffignore has no effect after upgrading",
      description:
        "Upgraded the CLI to 3.0 and now deploy bundles include node_modules and .env even though both are listed in .skiffignore. 2.9 respected it.",
    },
    same: true,
    note: "same regression in 3.0",
  },
  {
    a: {
      type: "bug",
      title: "Environment variables with '=' in value get truncated",
      description:
        "`skiff env set DATABASE_URL=postgres://u:p@h/db?sslmode=require` stores only 'postgres://u:p@h/db?sslmode'. Everything after the second '=' is lost.",
    },
    b: {
      type: "bug",
      title: "env var value cut off after equals sign",
      description:
        "Setting a base64 secret ending in '==' via skiff env set drops the trailing equals signs, so decoding fails at runtime.",
    },
    same: true,
    note: "same parsing bug on '=' in values, different examples",
  },
  {
    a: {
      type: "bug",
      title: "Webhook delivery log shows wrong timestamps",
      description: "The webhook log in the Parcelpoint dashboard shows delivery times 2 hours in the future.",
    },
    b: {
      type: "feedback",
      title: "Love the new onboarding",
      description: "The new board templates made setting up our sprint board really quick. Nice work!",
      metadata: { url: "https://app.kanbo.io/onboarding" },
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Environment variables with '=' in value get truncated",
      description: "`skiff env set KEY=a=b` stores only 'a'.",
    },
    b: {
      type: "bug",
      title: "Environment variables not available at build time",
      description:
        "Vars set with skiff env set are present at runtime but process.env.API_URL is undefined during `npm run build` on skiff builders.",
    },
    same: false,
    note: "same env var feature, parsing vs build-time exposure",
  },
  {
    a: {
      type: "bug",
      title: "skiff rollback fails with 'release not found'",
      description:
        "`skiff rollback v41` prints Error: release not found, but `skiff releases` lists v41 as the previous release.",
    },
    b: {
      type: "bug",
      title: "Rollback to previous release broken",
      description:
        "Tried to roll back after a bad deploy: skiff says release not found for the release id shown in the releases list. Had to redeploy the old commit manually. CLI 3.0.1.",
    },
    same: true,
    note: "same rollback lookup failure",
  },
  {
    a: {
      type: "bug",
      title: "Broken link on Getting Started page",
      description:
        "The 'Install the SDK' link on docs.quillkit.dev/getting-started points to /docs/sdk/install which returns 404.",
      metadata: { url: "https://docs.quillkit.dev/getting-started" },
    },
    b: {
      type: "bug",
      title: "404 from getting-started install link",
      description:
        "Clicking the SDK install link in step 2 of the quickstart leads to Page not found. The URL it goes to is /docs/sdk/install.",
      metadata: { url: "https://docs.quillkit.dev/getting-started" },
    },
    same: true,
    note: "same dead link",
  },
  {
    a: {
      type: "bug",
      title: "Broken link on Getting Started page",
      description:
        "The 'Install the SDK' link on /getting-started points to /docs/sdk/install which returns 404.",
      metadata: { url: "https://docs.quillkit.dev/getting-started" },
    },
    b: {
      type: "bug",
      title: "Broken link on Webhooks page",
      description:
        "On /guides/webhooks the 'signature verification' link goes to /docs/security/signatures which returns 404.",
      metadata: { url: "https://docs.quillkit.dev/guides/webhooks" },
    },
    same: false,
    note: "different page and link target",
  },
  {
    a: {
      type: "bug",
      title: "Code sample in Python quickstart is wrong",
      description:
        "The Python snippet on /quickstart/python calls client.documents.create(title=...) but the SDK method is client.docs.create; it raises AttributeError.",
      metadata: { url: "https://docs.quillkit.dev/quickstart/python" },
    },
    b: {
      type: "bug",
      title: "Code sample in Node quickstart is wrong",
      description:
        "The Node quickstart uses `await client.documents.list()` without the { limit } argument that v3 requires, which throws 'limit is required'.",
      metadata: { url: "https://docs.quillkit.dev/quickstart/node" },
    },
    same: false,
    note: "different language page and different mistake",
  },
  {
    a: {
      type: "bug",
      title: "Search on docs returns no results",
      description:
        "Typing anything in the docs search box (e.g. 'webhook') shows 'No results' since this morning. Yesterday it worked.",
      metadata: { url: "https://docs.quillkit.dev/" },
    },
    b: {
      type: "bug",
      title: "Docs search broken",
      description:
        "docs.quillkit.dev search gives zero hits for every query, including 'api key' and 'install'.",
      metadata: { url: "https://docs.quillkit.dev/guides/webhooks" },
    },
    same: true,
    note: "same outage of docs search",
  },
  {
    a: {
      type: "bug",
      title: "Docs search broken",
      description: "The docs search box returns zero hits for every query.",
      metadata: { url: "https://docs.quillkit.dev/" },
    },
    b: {
      type: "bug",
      title: "Search is broken",
      description:
        "In the Quillkit editor, searching inside a document (Cmd+F panel) doesn't highlight matches inside tables.",
      metadata: { url: "https://app.quillkit.dev/d/d_881" },
    },
    same: false,
    note: "docs site search vs in-app find, different host",
  },
  {
    a: {
      type: "feature",
      title: "Dark mode for docs",
      description:
        "Please add a dark theme to docs.quillkit.dev; the white background is hard on the eyes at night.",
      metadata: { url: "https://docs.quillkit.dev/" },
    },
    b: {
      type: "bug",
      title: "Dark mode code blocks unreadable",
      description:
        "With the new dark theme on the docs, code blocks keep their light background but use white text, so code is invisible.",
      metadata: { url: "https://docs.quillkit.dev/quickstart/node" },
    },
    same: false,
    note: "feature request vs bug in the shipped dark theme",
  },
  {
    a: {
      type: "bug",
      title: "Copy button on code blocks copies line numbers",
      description:
        "Clicking the copy icon on any code sample copies '1 import ...', '2 const ...' with line numbers prefixed, so pasted code doesn't run.",
      metadata: { url: "https://docs.quillkit.dev/quickstart/node" },
    },
    b: {
      type: "bug",
      title: "Copied snippets include line numbers",
      description:
        "When I use the copy-to-clipboard button in the docs, the clipboard contains the gutter numbers too. Have to delete them by hand.",
      metadata: { url: "https://docs.quillkit.dev/guides/webhooks" },
    },
    same: true,
    note: "same copy-button bug, different pages",
  },
  {
    a: {
      type: "bug",
      title: "Copy button on code blocks copies line numbers",
      description: "The copy icon on code samples includes the gutter numbers.",
      metadata: { url: "https://docs.quillkit.dev/quickstart/node" },
    },
    b: {
      type: "bug",
      title: "Copy button on code blocks missing on mobile",
      description:
        "On phones the copy icon on code blocks is hidden behind the horizontal scrollbar and can't be tapped.",
      metadata: { url: "https://docs.quillkit.dev/quickstart/node" },
    },
    same: false,
    note: "same copy button, wrong content vs unreachable on mobile",
  },
  {
    a: {
      type: "bug",
      title: "PDF export cuts off wide tables",
      description: "Exporting a Quillkit doc with a 10-column table to PDF truncates the right 3 columns.",
      metadata: { url: "https://app.quillkit.dev/d/d_1204" },
    },
    b: {
      type: "bug",
      title: "Tables truncated in exported PDF",
      description:
        "When I export to PDF, tables wider than the page are cut off instead of being scaled or wrapped. Last columns are missing.",
    },
    same: true,
    note: "same PDF table truncation",
  },
  {
    a: {
      type: "bug",
      title: "skiff prints ANSI codes in CI logs",
      description:
        "In GitHub Actions the output of skiff is full of escape sequences like [32m; NO_COLOR is ignored.",
    },
    b: {
      type: "bug",
      title: "Search box loses focus after first character",
      description:
        "Typing in the store search field, the input loses focus after one letter so I have to click it again.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "PDF export cuts off wide tables",
      description: "Exporting a doc with a 10-column table to PDF truncates the right 3 columns.",
      metadata: { url: "https://app.quillkit.dev/d/d_1204" },
    },
    b: {
      type: "bug",
      title: "Tables broken in DOCX export",
      description: "Word export keeps all columns, but merged header cells become separate empty cells.",
      metadata: { url: "https://app.quillkit.dev/d/d_1204" },
    },
    same: false,
    note: "different export format and symptom",
  },
  {
    a: {
      type: "bug",
      title: "Undo removes whole paragraph instead of last word",
      description:
        "In the Quillkit editor, pressing Ctrl+Z after typing a sentence deletes the entire paragraph I typed in the last minute, not just the last word.",
    },
    b: {
      type: "bug",
      title: "Ctrl+Z undoes way too much",
      description:
        "undo history seems to group everything: one Cmd+Z wipes several sentences. Chrome 125 on macOS.",
    },
    same: true,
    note: "same undo granularity bug",
  },
  {
    a: {
      type: "bug",
      title: "Undo removes whole paragraph instead of last word",
      description: "Ctrl+Z after typing deletes the whole paragraph instead of the last word.",
    },
    b: {
      type: "bug",
      title: "Redo doesn't work after undo in tables",
      description:
        "Inside a table cell, Ctrl+Y / Cmd+Shift+Z does nothing after an undo; outside tables redo works.",
    },
    same: false,
    note: "undo granularity vs redo in tables",
  },
  {
    a: {
      type: "bug",
      title: "Image alt text not saved",
      description:
        "In the Quillkit editor, setting alt text on an image and closing the dialog shows it, but after reload the alt attribute is empty.",
    },
    b: {
      type: "bug",
      title: "Image alt text not read by screen reader",
      description:
        "Images in published docs have alt text in the HTML but VoiceOver skips them because they are wrapped in an aria-hidden figure.",
    },
    same: false,
    note: "same alt text: not persisted vs hidden from assistive tech",
  },
  {
    a: {
      type: "bug",
      title: "3-D Secure popup never closes",
      description:
        "Using Paystride Checkout with the 3DS test card 4000 0000 0000 3220, the authentication modal shows 'Complete' but never closes; the payment stays pending.",
    },
    b: {
      type: "bug",
      title: "Payment stuck after 3DS authentication",
      description:
        "After approving the 3-D Secure challenge the modal stays open with a green check, and the PaymentIntent remains requires_action. Test card ending 3220.",
    },
    same: true,
    note: "same stuck 3DS modal",
  },
  {
    a: {
      type: "bug",
      title: "3-D Secure popup never closes",
      description:
        "The 3DS authentication modal shows 'Complete' but never closes; the payment stays pending.",
    },
    b: {
      type: "bug",
      title: "3-D Secure popup blank in Firefox",
      description:
        "In Firefox 126 the 3DS challenge iframe renders as a white box; Chrome shows the bank page. Console: Refused to frame 'acs.testbank.com' because of Content-Security-Policy.",
    },
    same: false,
    note: "blank iframe from CSP vs modal not closing",
  },
  {
    a: {
      type: "bug",
      title: "Refund fails with 'amount_too_large'",
      description: "Refunding $20 on a $100 charge returns amount_too_large. No prior refunds.",
    },
    b: {
      type: "bug",
      title: "Refund fails with 'charge_disputed'",
      description:
        "Refunding charge ch_3P9 returns charge_disputed, but the dispute was closed as won two weeks ago.",
    },
    same: false,
    note: "different error code and cause",
  },
  {
    a: {
      type: "bug",
      title: "Refund fails with amount_too_large on partial refund",
      description:
        "POST /v1/refunds {charge: ch_1Q2, amount: 2000} returns 400 amount_too_large though the charge is 10000 with nothing refunded.",
    },
    b: {
      type: "bug",
      title: "Partial refunds rejected as too large",
      description:
        "Any partial refund errors with amount_too_large since this week; full refunds work. Example: $20 of a $100 charge.",
    },
    same: true,
    note: "same partial-refund error",
  },
  {
    a: {
      type: "bug",
      title: "Payout to EUR account delayed",
      description:
        "EUR payouts scheduled for Monday have shown 'In transit' for 5 days; they usually arrive in 2.",
    },
    b: {
      type: "bug",
      title: "Payout to GBP account converted to EUR",
      description:
        "Our GBP payout was converted to EUR before sending even though the bank account is in GBP, losing about 2% on FX.",
    },
    same: false,
    note: "different currency and problem",
  },
  {
    a: {
      type: "bug",
      title: "Webhook signature verification fails",
      description:
        "Verifying Paystride webhook signatures with paystride-node 12.3.0 constructEvent fails: 'No signatures found matching the expected signature for payload'. Using raw body.",
    },
    b: {
      type: "bug",
      title: "Webhook signature verification fails",
      description:
        "Verifying Paystride webhook signatures with paystride-node 12.3.0, constructEvent fails with 'No signatures found matching the expected signature for payload'. I am passing the raw body.",
    },
    same: true,
    note: "near-identical retry by the same agent",
  },
  {
    a: {
      type: "bug",
      title: "paystride-node types wrong for PaymentIntent.amount",
      description:
        "In paystride-node 12.3.0 the TypeScript type of PaymentIntent.amount is string, but the runtime value is a number.",
    },
    b: {
      type: "bug",
      title: "paystride-python type stubs missing amount_received",
      description:
        "mypy reports 'PaymentIntent has no attribute amount_received' with paystride-python 8.1; the field exists at runtime.",
    },
    same: false,
    note: "different SDK and field",
  },
  {
    a: {
      type: "feature",
      title: "Support SAML SSO",
      description: "Enterprise customers need SAML 2.0 SSO with Azure AD.",
    },
    b: {
      type: "bug",
      title: "Video thumbnails show black frames",
      description: "Auto-generated thumbnails for new uploads are all black because they are taken at 0:00.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "paystride-node: amount typed as string",
      description:
        "In paystride-node 12.3.0 the TS type of PaymentIntent.amount is string, but the runtime value is a number, so our comparisons fail typecheck.",
    },
    b: {
      type: "bug",
      title: "Wrong TypeScript type for PaymentIntent amount",
      description:
        "index.d.ts declares `amount: string;` on PaymentIntent, while the API returns integer cents. Version 12.3.0.",
    },
    same: true,
    note: "same typing error",
  },
  {
    a: {
      type: "bug",
      title: "Dispute evidence upload fails for files over 4MB",
      description:
        "Uploading a 5.2 MB PDF as evidence on Disputes > dp_88 shows 'Upload failed'. A 3 MB file works. Docs say the limit is 16 MB.",
    },
    b: {
      type: "bug",
      title: "Can't submit dispute evidence",
      description:
        "Trying to attach our signed delivery receipt (PDF, ~6MB) to a dispute; the uploader just says upload failed. Compressed version under 4MB goes through.",
    },
    same: true,
    note: "same size threshold on evidence upload",
  },
  {
    a: {
      type: "bug",
      title: "Dispute evidence upload fails for files over 4MB",
      description: "A 5.2 MB PDF fails with 'Upload failed'; 3 MB works.",
    },
    b: {
      type: "bug",
      title: "Dispute evidence upload fails for HEIC images",
      description:
        "Photos from iPhone (.heic, 1-2 MB) are rejected with 'Unsupported file type' when attaching evidence; JPG works.",
    },
    same: false,
    note: "same uploader: size limit vs file type",
  },
  {
    a: {
      type: "bug",
      title: "Hosted invoice link says invoice unavailable",
      description:
        "Customers clicking 'Pay invoice' in the emailed invoice land on 'This invoice is no longer available' even though it is open and unpaid.",
    },
    b: {
      type: "bug",
      title: "Invoice email pay link broken",
      description:
        "Several clients report the payment link in our Paystride invoice emails leads to an 'unavailable' page. The invoice status in the dashboard is Open.",
    },
    same: true,
    note: "same broken hosted invoice link",
  },
  {
    a: {
      type: "feature",
      title: "Support SEPA Direct Debit",
      description: "Our German customers want to pay by SEPA Direct Debit in Checkout.",
    },
    b: {
      type: "bug",
      title: "SEPA Direct Debit payments stuck in processing",
      description:
        "SEPA payments created since Friday stay 'processing' for 10+ days; normal is 5 business days.",
    },
    same: false,
    note: "feature request vs bug on the same payment method",
  },
  {
    a: {
      type: "bug",
      title: "Password reset link expired immediately",
      description:
        "Reset emails contain a link that shows 'This link has expired' even when clicked within a minute.",
      metadata: { url: "https://login.authwell.com/reset" },
    },
    b: {
      type: "bug",
      title: "reset password token invalid right away",
      description:
        "requested a reset, clicked the email link straight away -> 'link has expired'. tried twice, gmail and outlook.",
      metadata: { url: "https://login.authwell.com/reset/confirm" },
    },
    same: true,
    note: "same instant expiry of reset links",
  },
  {
    a: {
      type: "bug",
      title: "Password reset link expired immediately",
      description: "Reset links show 'This link has expired' even when clicked within a minute.",
      metadata: { url: "https://login.authwell.com/reset" },
    },
    b: {
      type: "bug",
      title: "Password reset email never arrives",
      description:
        "Requesting a reset for me@ourco.com shows 'Check your inbox' but no email arrives (checked spam). Signup emails do arrive.",
      metadata: { url: "https://login.authwell.com/reset" },
    },
    same: false,
    note: "same flow: expired link vs email not delivered",
  },
  {
    a: {
      type: "bug",
      title: "Login problem",
      description:
        "SSO login with Okta loops back to the sign-in page after the Okta redirect; no error is shown.",
      metadata: { url: "https://login.authwell.com/login" },
    },
    b: {
      type: "bug",
      title: "Login problem",
      description:
        "Email/password login says 'Invalid credentials' for users whose password contains a '+' character; the same password works in the mobile app.",
      metadata: { url: "https://login.authwell.com/login" },
    },
    same: false,
    note: "identical generic title, different cause",
  },
  {
    a: {
      type: "bug",
      title: "Google sign-in redirect loop",
      description:
        "After choosing my Google account I'm sent back to /login and the Google chooser appears again, forever. Chrome 125.",
      metadata: { url: "https://login.authwell.com/login" },
    },
    b: {
      type: "bug",
      title: "Infinite loop when logging in with Google",
      description:
        "Sign in with Google keeps bouncing between accounts.google.com and login.authwell.com/login. Cookies enabled. Started after yesterday's release.",
      metadata: { url: "https://login.authwell.com/login" },
    },
    same: true,
    note: "same Google redirect loop",
  },
  {
    a: {
      type: "bug",
      title: "Google sign-in redirect loop",
      description: "After choosing my Google account I'm sent back to /login and the chooser appears again.",
      metadata: { url: "https://login.authwell.com/login" },
    },
    b: {
      type: "bug",
      title: "Apple sign-in redirect loop",
      description:
        "Sign in with Apple returns to /login?error=invalid_client after approving on appleid.apple.com. Google sign-in works.",
      metadata: { url: "https://login.authwell.com/login" },
    },
    same: false,
    note: "different identity provider and visible error",
  },
  {
    a: {
      type: "bug",
      title: "2FA codes rejected",
      description:
        "TOTP codes from Google Authenticator are always rejected as 'Invalid code'. Phone time is set automatically.",
    },
    b: {
      type: "feature",
      title: "Allow WebAuthn security keys for 2FA",
      description: "We'd like to use YubiKeys as a second factor instead of TOTP codes.",
    },
    same: false,
    note: "bug vs related feature request",
  },
  {
    a: {
      type: "feedback",
      title: "Docs need more Go examples",
      description: "The docs are great but almost every sample is Node or Python; please add Go.",
      metadata: { url: "https://docs.quillkit.dev/" },
    },
    b: {
      type: "bug",
      title: "Calendar export .ics has wrong encoding",
      description:
        "Event titles with accents show as 'RÃ©union' after importing the exported .ics into Outlook.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "2FA codes always invalid",
      description:
        "Every 6-digit code from my authenticator app is rejected since the May 12 release. Backup codes work.",
    },
    b: {
      type: "bug",
      title: "TOTP verification failing for all users",
      description:
        "Our support has 30+ tickets: authenticator codes rejected with 'Invalid code' starting May 12. Looks like server clock skew or a wrong time window.",
    },
    same: true,
    note: "single user vs org-wide report of the same TOTP failure",
  },
  {
    a: {
      type: "bug",
      title: "Session expires every 5 minutes",
      description:
        "Metricly logs me out after about 5 minutes of activity since Monday. 'Remember me' is ticked.",
      metadata: { url: "https://app.metricly.io/login" },
    },
    b: {
      type: "bug",
      title: "Getting logged out constantly",
      description:
        "I keep getting kicked to the login screen, roughly every five minutes, even while clicking around. Started this week.",
      metadata: { url: "https://app.metricly.io/dashboards" },
    },
    same: true,
    note: "same premature session expiry, low word overlap",
  },
  {
    a: {
      type: "bug",
      title: "Session expires every 5 minutes",
      description: "I'm logged out after about 5 minutes of activity.",
      metadata: { url: "https://app.metricly.io/login" },
    },
    b: {
      type: "bug",
      title: "Session not revoked after logout on other device",
      description:
        "Logging out on desktop doesn't end the session on my phone; 'Sign out of all devices' doesn't either.",
      metadata: { url: "https://app.metricly.io/settings/security" },
    },
    same: false,
    note: "sessions too short vs not revoked",
  },
  {
    a: {
      type: "bug",
      title: "Magic link login fails when opened in a different browser",
      description:
        "If I request a magic link in Firefox and the email opens it in Chrome, I get 'Invalid session' instead of being logged in.",
      metadata: { url: "https://login.authwell.com/magic" },
    },
    b: {
      type: "bug",
      title: "Email sign-in link says invalid session on phone",
      description:
        "Requested the login link on my laptop, clicked it in the mail app on my phone: 'Invalid session'. Clicking it on the laptop works.",
    },
    same: true,
    note: "same cross-browser magic link failure",
  },
  {
    a: {
      type: "bug",
      title: "Magic link login fails when opened in a different browser",
      description:
        "Requesting a magic link in one browser and opening it in another gives 'Invalid session'.",
    },
    b: {
      type: "bug",
      title: "Magic link email goes to spam in Outlook",
      description:
        "Magic link emails land in the Junk folder for Outlook.com recipients; SPF passes but DKIM fails per the headers.",
    },
    same: false,
    note: "same feature, link validation vs deliverability",
  },
  {
    a: {
      type: "bug",
      title: "Users with '+' in email can't sign up",
      description: "Signing up with anna+test@example.com fails: 'Please enter a valid email'.",
    },
    b: {
      type: "bug",
      title: "Users with '+' in password can't log in",
      description:
        "Login rejects valid passwords containing '+'; looks like the form URL-encodes it as a space.",
    },
    same: false,
    note: "same character, email validation vs password encoding",
  },
  {
    a: {
      type: "bug",
      title: "Search is broken",
      description:
        "Searching for 'running shoes' on the store returns results for 'running' only; the second word is ignored.",
    },
    b: {
      type: "bug",
      title: "Search is broken",
      description:
        "The search box throws 'Request failed with status 500' for any query containing an apostrophe, e.g. men's.",
    },
    same: false,
    note: "identical generic title, different failures",
  },
  {
    a: {
      type: "bug",
      title: "Search ignores second word",
      description:
        "Multi-word queries only match the first term: 'running shoes' returns socks, shirts etc. with 'running'.",
    },
    b: {
      type: "bug",
      title: "Multi-term queries treated as single term",
      description:
        "The Findly widget seems to drop everything after the first space. 'red dress' gives all red items, 'dress' alone works.",
    },
    same: true,
    note: "same tokenization bug, different examples",
  },
  {
    a: {
      type: "bug",
      title: "Search results not sorted by price",
      description: "Choosing 'Price: low to high' leaves the result order unchanged.",
    },
    b: {
      type: "bug",
      title: "Search results sorted by price incorrectly",
      description: "'Price: low to high' puts $100 before $20 - looks like a string sort.",
    },
    same: false,
    note: "sort ignored vs lexicographic sort",
  },
  {
    a: {
      type: "bug",
      title: "Apostrophe in search query causes 500",
      description: "Queries like men's or o'neill return HTTP 500 from /api/search.",
    },
    b: {
      type: "bug",
      title: "Search crashes on single quote",
      description:
        "If you type a ' in the search bar you get 'Something went wrong'. Network tab: GET /api/search?q=kid%27s -> 500.",
    },
    same: true,
    note: "same apostrophe crash",
  },
  {
    a: {
      type: "bug",
      title: "Apostrophe in search query causes 500",
      description: "Queries like men's return HTTP 500 from /api/search.",
    },
    b: {
      type: "bug",
      title: "Emoji in search query causes 400",
      description:
        "Searching for a query containing an emoji like '🎁 gift' returns 400 invalid_query from /api/search.",
    },
    same: false,
    note: "different character and status code",
  },
  {
    a: {
      type: "bug",
      title: "Achievement popup covers the pause menu",
      description:
        "When an achievement unlocks while the game is paused, the toast sits over the Resume button.",
    },
    b: {
      type: "bug",
      title: "Bounce rate chart legend overlaps",
      description: "On narrow screens the legend of the bounce rate chart overlaps the x-axis labels.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Exact product name not ranked first",
      description: "Searching 'Aurora Desk Lamp' shows the Aurora lamp on page 2 behind unrelated lamps.",
    },
    b: {
      type: "bug",
      title: "Search ranks exact title matches low",
      description:
        "Typing an exact product title returns it far down the list; e.g. query Aurora Desk Lamp -> result #14.",
    },
    same: true,
    note: "same relevance issue, same example",
  },
  {
    a: {
      type: "bug",
      title: "Search autocomplete suggests discontinued products",
      description: "Autocomplete still suggests products removed from the catalogue last month.",
    },
    b: {
      type: "bug",
      title: "Search autocomplete doesn't show on mobile",
      description: "On mobile Safari the autocomplete dropdown never appears; desktop is fine.",
    },
    same: false,
    note: "same component: stale content vs not rendering",
  },
  {
    a: {
      type: "bug",
      title: "Search is slow with filters",
      description: "Adding the 'Brand' filter makes search take 6-8s; without it <300ms.",
    },
    b: {
      type: "bug",
      title: "Brand facet makes queries very slow",
      description:
        "Any search with the brand parameter takes ~7 seconds (/api/search?q=lamp&brand=aurora). Without brand it's instant.",
    },
    same: true,
    note: "same slow brand filter",
  },
  {
    a: {
      type: "bug",
      title: "Search is slow with filters",
      description: "Adding the 'Brand' filter makes search take 6-8s; without it <300ms.",
    },
    b: {
      type: "bug",
      title: "Search is slow on first load",
      description:
        "The first search after opening the site takes ~5s (cold start); later ones are fast, with or without filters.",
    },
    same: false,
    note: "filter-specific slowness vs cold start",
  },
  {
    a: {
      type: "bug",
      title: "Typo tolerance not working",
      description:
        "Searching 'jaket' returns no results; it used to show jackets. 'sneekers' also returns nothing.",
    },
    b: {
      type: "bug",
      title: "Misspelled queries return nothing",
      description:
        "Since the index rebuild on Monday, fuzzy matching seems off: 'jaket' -> 0 results, 'jacket' -> 212.",
    },
    same: true,
    note: "same fuzzy matching regression",
  },
  {
    a: {
      type: "bug",
      title: "Typo tolerance not working",
      description: "Searching 'jaket' returns no results; 'jacket' returns 212.",
    },
    b: {
      type: "bug",
      title: "Typo tolerance too aggressive",
      description:
        "Searching for the SKU 'LW-1042' returns LW-1024 and LW-1045 first; exact SKU match is third.",
    },
    same: false,
    note: "opposite fuzzy-matching problems",
  },
  {
    a: {
      type: "bug",
      title: "Upload fails for PNG files",
      description:
        "Uploading a .png to a shared folder stops at 100% and shows 'Upload failed'. JPGs of the same size upload fine.",
      metadata: { url: "https://dropbin.com/f/team" },
    },
    b: {
      type: "bug",
      title: "Upload fails for PDF files",
      description:
        "PDFs over 25 MB are rejected with 'File too large' although our Business plan allows 2 GB per file. Small PDFs work.",
      metadata: { url: "https://dropbin.com/f/team" },
    },
    same: false,
    note: "different file type and cause",
  },
  {
    a: {
      type: "bug",
      title: "PNG uploads fail at 100%",
      description:
        "Any PNG I upload reaches 100% then says Upload failed. JPEG and GIF are fine. Chrome 124, Windows 11.",
      metadata: { url: "https://dropbin.com/f/home" },
    },
    b: {
      type: "bug",
      title: "Can't upload .png images",
      description:
        "dropbin rejects png files - the progress bar fills then 'Upload failed'. Tried screenshots from macOS and from Windows. jpgs go through.",
      metadata: { url: "https://dropbin.com/f/design" },
    },
    same: true,
    note: "same PNG upload failure",
  },
  {
    a: {
      type: "feature",
      title: "Raise upload limit to 5 GB",
      description: "We share raw video; the 2 GB per-file limit on Business is too low.",
    },
    b: {
      type: "bug",
      title: "Upload limit shown as 2 GB on Enterprise plan",
      description:
        "Our Enterprise workspace should allow 10 GB per file, but the uploader rejects a 3 GB file with 'Max 2 GB'.",
    },
    same: false,
    note: "feature request for a higher limit vs plan entitlement bug",
  },
  {
    a: {
      type: "bug",
      title: "Drag and drop upload doesn't work in Firefox",
      description:
        "Dragging files onto the folder view in Firefox 126 opens the file in a new tab instead of uploading it.",
      metadata: { url: "https://dropbin.com/f/home" },
    },
    b: {
      type: "bug",
      title: "Firefox opens dropped file instead of uploading it",
      description:
        "When I drop a PDF onto the upload area, Firefox navigates to the PDF. Chrome uploads it normally.",
      metadata: { url: "https://dropbin.com/f/home" },
    },
    same: true,
    note: "same Firefox drop handling bug",
  },
  {
    a: {
      type: "bug",
      title: "Drag and drop upload doesn't work in Firefox",
      description:
        "Dragging files onto the folder view in Firefox 126 opens the file in a new tab instead of uploading.",
      metadata: { url: "https://dropbin.com/f/home" },
    },
    b: {
      type: "bug",
      title: "Drag and drop upload doesn't work for folders",
      description: "Dropping a folder onto the upload area in Chrome uploads nothing; individual files work.",
      metadata: { url: "https://dropbin.com/f/home" },
    },
    same: false,
    note: "browser-specific drop vs folder drop",
  },
  {
    a: {
      type: "bug",
      title: "CLI ignores --region flag",
      description: "`skiff deploy --region fra` still deploys to iad; the region in skiff.toml wins.",
    },
    b: {
      type: "feature",
      title: "Recurring invoices",
      description: "Let me schedule an invoice to be sent automatically every month to retainer clients.",
      metadata: { url: "https://app.ledgerly.io/invoices" },
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Upload progress bar stuck at 99%",
      description: "Large uploads (>1GB) sit at 99% for several minutes before completing.",
      metadata: { url: "https://dropbin.com/f/video" },
    },
    b: {
      type: "bug",
      title: "Big files hang at 99 percent",
      description:
        "Uploading a 2 GB video, progress reaches 99% and stays there ~5 min, then finishes. Smaller files don't pause.",
    },
    same: true,
    note: "same finalization delay",
  },
  {
    a: {
      type: "bug",
      title: "Upload progress bar stuck at 99%",
      description: "Large uploads sit at 99% for several minutes before completing.",
      metadata: { url: "https://dropbin.com/f/video" },
    },
    b: {
      type: "bug",
      title: "Upload progress bar stuck at 0%",
      description:
        "Uploads from Safari on iPad never start; the progress bar stays at 0% and no request is made.",
      metadata: { url: "https://dropbin.com/f/video" },
    },
    same: false,
    note: "different stage and platform",
  },
  {
    a: {
      type: "bug",
      title: "Image CDN returns 403 for thumbnails",
      description:
        "Thumbnails at cdn.dropbin.com/t/... return 403 Forbidden since the bucket migration; originals load.",
    },
    b: {
      type: "bug",
      title: "Image CDN returns 404 for thumbnails",
      description:
        "Thumbnails for files uploaded before 2022 return 404 Not Found; newer thumbnails are fine.",
    },
    same: false,
    note: "403 for all vs 404 for old files",
  },
  {
    a: {
      type: "bug",
      title: "Thumbnails 403 after migration",
      description:
        "All preview thumbnails are broken images; requests to cdn.dropbin.com/t/<id>.webp return 403 Forbidden.",
    },
    b: {
      type: "bug",
      title: "Image CDN returns 403 for thumbnails",
      description:
        "Thumbnails at cdn.dropbin.com/t/... return 403 Forbidden since the bucket migration yesterday; the original files still open.",
    },
    same: true,
    note: "same 403 thumbnails",
  },
  {
    a: {
      type: "bug",
      title: "Shared link preview shows the wrong file",
      description:
        "Sharing report-q2.pdf in Slack unfurls with the thumbnail and name of budget.xlsx, a different file in the same folder.",
      metadata: { url: "https://dropbin.com/s/q2report" },
    },
    b: {
      type: "bug",
      title: "Link preview thumbnail from another file",
      description:
        "When I paste a Dropbin share link into Slack or iMessage, the preview image and title belong to a different file from that folder.",
    },
    same: true,
    note: "same wrong link unfurl",
  },
  {
    a: {
      type: "bug",
      title: "Push notifications not delivered on Android 14",
      description:
        "Since upgrading to Android 14, no push notifications arrive from Pingbell; the in-app list shows them. Notification permission is granted.",
    },
    b: {
      type: "bug",
      title: "No push on Android 14 devices",
      description:
        "Users on Android 14 stopped receiving pushes; Android 13 users are fine. FCM delivery report says 'delivered'.",
    },
    same: true,
    note: "same Android 14 push failure",
  },
  {
    a: {
      type: "bug",
      title: "Push notifications not delivered on Android 14",
      description: "No push notifications arrive on Android 14; in-app list shows them.",
    },
    b: {
      type: "bug",
      title: "Push notifications not delivered on iOS 17",
      description:
        "iOS users get no pushes since we rotated our APNs key; APNs returns 403 InvalidProviderToken in the Pingbell delivery logs.",
    },
    same: false,
    note: "different OS and cause",
  },
  {
    a: {
      type: "bug",
      title: "Email notifications sent twice",
      description: "Every mention notification email arrives twice, about 1s apart.",
    },
    b: {
      type: "bug",
      title: "Email notifications not sent for mentions",
      description:
        "When someone @mentions me in a comment I get the in-app notification but never the email. Email notifications are enabled.",
    },
    same: false,
    note: "duplicated vs missing email",
  },
  {
    a: {
      type: "bug",
      title: "Duplicate notification emails",
      description: "Getting two copies of each notification email for @mentions since Tuesday.",
    },
    b: {
      type: "bug",
      title: "Email notifications sent twice",
      description:
        "Every mention notification email arrives twice, roughly a second apart. Headers show two different Message-IDs.",
    },
    same: true,
    note: "same duplicated mention emails",
  },
  {
    a: {
      type: "bug",
      title: "Unread badge doesn't clear",
      description:
        "The red badge on the bell stays at 3 after reading all notifications; reloading keeps it.",
      metadata: { url: "https://app.kanbo.io/inbox" },
    },
    b: {
      type: "bug",
      title: "Notification counter stuck",
      description:
        "Bell icon shows '3' forever even though the notification list has nothing unread. 'Mark all as read' doesn't reset it.",
      metadata: { url: "https://app.kanbo.io/boards/42" },
    },
    same: true,
    note: "same stuck web badge",
  },
  {
    a: {
      type: "bug",
      title: "Unread badge doesn't clear",
      description: "The red badge on the bell stays at 3 after reading all notifications.",
      metadata: { url: "https://app.kanbo.io/inbox" },
    },
    b: {
      type: "bug",
      title: "Unread badge count on app icon wrong on iOS",
      description:
        "The iOS home-screen badge shows 12 while the in-app bell shows 0; it only resets when reinstalling.",
    },
    same: false,
    note: "web bell vs iOS app icon badge",
  },
  {
    a: {
      type: "bug",
      title: "Reset password page 500 on Firefox",
      description: "Opening the password reset form in Firefox ESR 115 gives a 500 error page.",
      metadata: { url: "https://login.authwell.com/reset" },
    },
    b: {
      type: "bug",
      title: "Route ETA off by an hour in Arizona",
      description: "ETAs for trips ending in Phoenix are an hour late; Arizona doesn't observe DST.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Quiet hours ignored",
      description:
        "I set quiet hours 22:00-07:00 in Pingbell settings but still got 6 pushes last night around 1am.",
    },
    b: {
      type: "bug",
      title: "Notifications arrive during do-not-disturb window",
      description:
        "The app's do-not-disturb schedule (10pm to 7am) doesn't suppress anything; alerts keep buzzing overnight. Android 14, Pingbell 3.8.",
    },
    same: true,
    note: "same quiet-hours bug, different wording",
  },
  {
    a: {
      type: "bug",
      title: "Quiet hours ignored",
      description: "Quiet hours 22:00-07:00 are set but pushes still arrive overnight.",
    },
    b: {
      type: "bug",
      title: "Quiet hours reset to default after app update",
      description:
        "After updating to 3.8, my quiet hours changed back to the default 23:00-06:00; I had to set 21:00-08:00 again. They are respected afterwards.",
    },
    same: false,
    note: "settings lost on update vs setting not enforced",
  },
  {
    a: {
      type: "bug",
      title: "Slack integration not posting messages",
      description:
        "Alerts configured for #ops in Slack stopped posting on June 2; the integration page shows 'Connected'.",
    },
    b: {
      type: "bug",
      title: "Discord integration not posting messages",
      description:
        "Discord webhook alerts fail with 'Invalid Webhook Token' in the integration log after we regenerated the webhook in Discord.",
    },
    same: false,
    note: "different integration and cause",
  },
  {
    a: {
      type: "bug",
      title: "Slack alerts stopped",
      description:
        "No alerts in #ops since June 2 even though the incidents show in Harborline. Integration says Connected.",
    },
    b: {
      type: "bug",
      title: "Slack integration not posting messages",
      description:
        "Alerts for our #ops channel have not appeared since Sunday June 2. Reconnecting the Slack app didn't help. Email alerts still work.",
    },
    same: true,
    note: "same Slack delivery outage",
  },
  {
    a: {
      type: "bug",
      title: "Slack integration not posting messages",
      description: "Alerts for #ops have not appeared since June 2.",
    },
    b: {
      type: "bug",
      title: "Slack integration posts to wrong channel",
      description: "Alerts meant for #ops are posted in #general since we renamed #ops-alerts to #ops.",
    },
    same: false,
    note: "not posting vs posting to the wrong channel",
  },
  {
    a: {
      type: "bug",
      title: "Jira sync creates duplicate tickets",
      description: "Each incident creates two Jira issues when the incident is reassigned to another team.",
    },
    b: {
      type: "bug",
      title: "Linear sync creates duplicate tickets",
      description:
        "Linear issues are created twice when the incident title contains an emoji; reassigning doesn't matter.",
    },
    same: false,
    note: "different integration and trigger",
  },
  {
    a: {
      type: "bug",
      title: "Microsoft Teams alert card shows raw markdown",
      description:
        "Alerts posted to Teams display **Severity:** and [Open incident](https://...) literally instead of formatted text.",
    },
    b: {
      type: "bug",
      title: "Teams messages unformatted",
      description:
        "Our Teams channel gets alert text full of asterisks and bracketed links; looks like markdown isn't being converted for Teams. Slack looks fine.",
    },
    same: true,
    note: "same Teams formatting issue",
  },
  {
    a: {
      type: "bug",
      title: "Microsoft Teams alert card shows raw markdown",
      description: "Teams alerts show **Severity:** literally.",
    },
    b: {
      type: "bug",
      title: "Microsoft Teams alert card missing action buttons",
      description:
        "Teams alert cards used to have Acknowledge and Resolve buttons; since the connector migration they are gone. Text renders fine.",
    },
    same: false,
    note: "same Teams card, formatting vs missing actions",
  },
  {
    a: {
      type: "bug",
      title: "GitHub integration: PR links not shown on cards",
      description: "Since June 1, linking a PR in a Kanbo card no longer shows the PR status badge.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    b: {
      type: "bug",
      title: "PR status badge gone from cards",
      description:
        "cards with linked github pull requests used to show Open/Merged; now just empty space. Reconnected the GitHub app, no change.",
      metadata: { url: "https://app.kanbo.io/boards/19" },
    },
    same: true,
    note: "same missing GitHub badge",
  },
  {
    a: {
      type: "bug",
      title: "GitHub integration: PR links not shown on cards",
      description: "Since June 1, PR status badges no longer show on cards.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    b: {
      type: "bug",
      title: "GitLab integration: MR links not shown on cards",
      description:
        "Merge request links from self-hosted GitLab 16.10 show as plain text, never as a badge. GitHub links work.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    same: false,
    note: "different integration, GitHub works there",
  },
  {
    a: {
      type: "feature",
      title: "Slack notifications for new comments",
      description: "Please post to a Slack channel when someone comments on a card in a chosen board.",
      metadata: { url: "https://app.kanbo.io/settings/integrations" },
    },
    b: {
      type: "bug",
      title: "Slack notifications stopped working",
      description:
        "Card-moved notifications to #eng stopped on Monday; Slack integration page says Connected.",
      metadata: { url: "https://app.kanbo.io/settings/integrations" },
    },
    same: false,
    note: "feature request vs outage of an existing notification",
  },
  {
    a: {
      type: "feature",
      title: "Markdown in ticket replies",
      description:
        "Agents want to use Markdown (code blocks especially) when replying to developer customers.",
    },
    b: {
      type: "bug",
      title: "Heart rate zones wrong for age over 60",
      description:
        "Zone 2 upper bound is computed with 220-age without the age adjustment the settings page promises.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Dashboard chart shows no data for last 7 days",
      description:
        "Charts on the main dashboard (Active users, Sessions) are empty when the range is 'Last 7 days'; 30 days works.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    b: {
      type: "bug",
      title: "Last 7 days filter gives empty charts",
      description:
        "Selecting the 'Last 7 days' range on the overview dashboard makes every chart say No data. A custom range covering the same dates shows data.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    same: true,
    note: "same preset range bug",
  },
  {
    a: {
      type: "bug",
      title: "Dashboard chart shows no data for last 7 days",
      description: "Charts are empty with 'Last 7 days'; 30 days works.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    b: {
      type: "bug",
      title: "Dashboard chart shows data off by one day",
      description: "Today's bar shows yesterday's numbers; looks like UTC vs local timezone (we're UTC-7).",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    same: false,
    note: "empty range vs timezone shift",
  },
  {
    a: {
      type: "bug",
      title: "Dashboard loads slowly",
      description:
        "The main dashboard takes ~15s to load for our workspace with 40 widgets; network shows /api/widgets called 40 times sequentially.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    b: {
      type: "bug",
      title: "Dashboard loads slowly",
      description:
        "Since enabling the new Revenue widget the dashboard takes 12s; removing that widget brings it back to 2s. /api/widgets/revenue alone takes 11s.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    same: false,
    note: "identical title: request waterfall vs one slow query",
  },
  {
    a: {
      type: "bug",
      title: "Dashboard takes 15s to load",
      description:
        "Our main dashboard with 40 widgets needs ~15s; network shows /api/widgets requests running one after another.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    b: {
      type: "feedback",
      title: "Dashboard is painfully slow with many widgets",
      description:
        "Our dashboard has ~40 widgets and is close to unusable; the waterfall shows each widget request waits for the previous one.",
    },
    same: true,
    note: "bug vs feedback type, same sequential loading cause",
  },
  {
    a: {
      type: "bug",
      title: "Cannot upgrade from Starter to Pro",
      description:
        "Clicking Upgrade on Billing > Plans shows 'Something went wrong' when moving from Starter to Pro. Card is valid.",
      metadata: { url: "https://app.metricly.io/settings/billing" },
    },
    b: {
      type: "bug",
      title: "Cannot downgrade from Pro to Starter",
      description:
        "The Downgrade button is disabled for Pro with tooltip 'Contact sales', although the docs say self-serve downgrade is allowed.",
      metadata: { url: "https://app.metricly.io/settings/billing" },
    },
    same: false,
    note: "upgrade error vs downgrade disabled",
  },
  {
    a: {
      type: "bug",
      title: "Can't invite team members",
      description:
        "Inviting a teammate on Settings > Members shows 'Seat limit reached' though 3 of 10 seats are used.",
      metadata: { url: "https://app.metricly.io/settings/members" },
    },
    b: {
      type: "bug",
      title: "Can't invite team members",
      description:
        "Invitation emails arrive, but the Accept link says 'Invite not found' for invites sent to addresses with uppercase letters.",
      metadata: { url: "https://app.metricly.io/invite/accept" },
    },
    same: false,
    note: "identical title, seat count vs case-sensitive invite lookup",
  },
  {
    a: {
      type: "bug",
      title: "Seat limit reached error with free seats",
      description:
        "Settings > Members: inviting anyone gives 'Seat limit reached' but billing shows 3/10 seats.",
      metadata: { url: "https://app.metricly.io/settings/members" },
    },
    b: {
      type: "bug",
      title: "Can't invite team members",
      description:
        "Inviting a teammate shows 'Seat limit reached' though we only use 3 of our 10 seats. Pro plan.",
      metadata: { url: "https://app.metricly.io/settings/members" },
    },
    same: true,
    note: "same seat count bug, generic vs specific title",
  },
  {
    a: {
      type: "bug",
      title: "Memory leak in dashboard tab",
      description:
        "Leaving the dashboard open overnight with 1-min auto-refresh grows the Chrome tab to 4 GB. Heap snapshot shows thousands of detached tooltip divs.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    b: {
      type: "bug",
      title: "Chart tooltips leak DOM nodes on refresh",
      description:
        "Each auto-refresh leaves detached tooltip elements behind; after 8 hours Chrome reports 3.8 GB for the tab.",
    },
    same: true,
    note: "same tooltip leak",
  },
  {
    a: {
      type: "bug",
      title: "Memory leak in dashboard tab",
      description:
        "Tab grows to 4 GB overnight; heap snapshots show detached tooltip divs accumulating on each auto-refresh.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    b: {
      type: "bug",
      title: "High CPU in dashboard tab",
      description:
        "The dashboard uses 100% of one core even when idle with auto-refresh off; the profiler shows a requestAnimationFrame loop in the sparkline component. Memory stays flat.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    same: false,
    note: "memory leak in tooltips vs CPU loop in sparklines",
  },
  {
    a: {
      type: "bug",
      title: "Funnel step counts exceed previous step",
      description:
        "Signup funnel shows 1,200 users at step 2 and 1,450 at step 3, which is impossible for a strict funnel.",
      metadata: { url: "https://app.metricly.io/funnels/signup" },
    },
    b: {
      type: "bug",
      title: "Funnel shows more users at a later step",
      description:
        "In Funnels, later steps sometimes have more users than earlier ones (e.g. 'Activated' > 'Verified'). Looks like steps aren't required in order.",
      metadata: { url: "https://app.metricly.io/funnels/signup" },
    },
    same: true,
    note: "same funnel ordering bug",
  },
  {
    a: {
      type: "bug",
      title: "Funnel step counts exceed previous step",
      description: "Step 3 has more users than step 2.",
      metadata: { url: "https://app.metricly.io/funnels/signup" },
    },
    b: {
      type: "bug",
      title: "Funnel conversion shows 0% for small rates",
      description:
        "A step converting 37 of 12,000 users shows 0% instead of 0.3%; the percentage is rounded to whole numbers.",
      metadata: { url: "https://app.metricly.io/funnels/signup" },
    },
    same: false,
    note: "same funnel view, wrong counts vs rounding",
  },
  {
    a: {
      type: "bug",
      title: "Grocery list sorted alphabetically instead of by aisle",
      description: "The 'Sort by aisle' option in the shopping list has no effect; items stay alphabetical.",
    },
    b: {
      type: "bug",
      title: "429 on /v1/rates after a few requests",
      description:
        "Getting 429 Too Many Requests on /v1/rates after only 5 requests per minute, our plan allows 600.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Dark mode toggle resets on reload",
      description: "Choosing Dark in the theme switcher works until the page reloads, then it's Light again.",
      metadata: { url: "https://app.metricly.io/settings/profile" },
    },
    b: {
      type: "bug",
      title: "Dark mode chart colors unreadable",
      description: "In dark mode the line chart axes and labels stay dark grey on the dark background.",
      metadata: { url: "https://app.metricly.io/dashboards/main" },
    },
    same: false,
    note: "same theme: persistence vs chart contrast",
  },
  {
    a: {
      type: "bug",
      title: "Card snaps back when dragged to another column",
      description: "Dragging a card from To do to In progress snaps it back; refreshing shows it did move.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    b: {
      type: "bug",
      title: "Cards land one slot lower when reordering",
      description:
        "Reordering cards within the same column puts the card one position below where it was dropped.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    same: false,
    note: "same drag and drop: visual revert across columns vs off-by-one within a column",
  },
  {
    a: {
      type: "bug",
      title: "Card snaps back after dragging to another column",
      description:
        "Moving a card from To do to In progress snaps it back to To do, but after refreshing the page it is in In progress.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    b: {
      type: "bug",
      title: "Board doesn't update when moving cards",
      description:
        "kanbo board: when i drag a task to a different column it jumps back visually, though the move is saved (reload shows it in the right place).",
      metadata: { url: "https://app.kanbo.io/boards/31" },
    },
    same: true,
    note: "same optimistic-update bug",
  },
  {
    a: {
      type: "bug",
      title: "Due date reminders sent at wrong time",
      description: "Reminders arrive at 9am UTC instead of 9am local time (Europe/Berlin).",
    },
    b: {
      type: "bug",
      title: "Due date reminders not sent for recurring tasks",
      description: "One-off tasks send reminders, but weekly recurring tasks never send any reminder.",
    },
    same: false,
    note: "wrong time vs never sent",
  },
  {
    a: {
      type: "feature",
      title: "Gantt view for projects",
      description: "Add a Gantt chart showing tasks as bars over dates with dependencies.",
    },
    b: {
      type: "feature",
      title: "Calendar view for projects",
      description: "Show cards with due dates on a month calendar, so we can see what's due each day.",
    },
    same: false,
    note: "two different view feature requests",
  },
  {
    a: {
      type: "feature",
      title: "Add Gantt chart view",
      description: "We need a timeline/Gantt view of tasks with dependencies to plan releases.",
    },
    b: {
      type: "feature",
      title: "Timeline view with task dependencies",
      description:
        "Please add a timeline where tasks are bars over dates and you can draw dependencies between them, like MS Project.",
    },
    same: true,
    note: "same feature request, low title overlap",
  },
  {
    a: {
      type: "feature",
      title: "Dark mode",
      description: "Please add a dark theme to the Kanbo web app; the boards are blinding at night.",
    },
    b: {
      type: "feature",
      title: "Night theme for boards",
      description: "Any plans for a dark color scheme? Working late on boards strains my eyes.",
    },
    same: true,
    note: "same feature request, different words",
  },
  {
    a: { type: "feature", title: "Dark mode", description: "Please add a dark theme to the Kanbo web app." },
    b: {
      type: "feature",
      title: "Dark mode for mobile app",
      description:
        "The Kanbo web app has dark mode now, but the iOS app doesn't have it or follow the system setting.",
    },
    same: false,
    note: "web vs mobile app request",
  },
  {
    a: {
      type: "feature",
      title: "Keyboard shortcut to archive cards",
      description: "Please add a shortcut (e.g. E) to archive the selected card.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    b: {
      type: "bug",
      title: "E shortcut stopped archiving cards",
      description:
        "Pressing E on a selected card used to archive it; since v6.3 it does nothing. Archive via the menu still works.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    same: false,
    note: "original feature request vs regression after it shipped",
  },
  {
    a: {
      type: "bug",
      title: "Save button label typo",
      description: "Settings > Profile: the button says 'Svae changes'.",
      metadata: { url: "https://app.kanbo.io/settings/profile" },
    },
    b: {
      type: "bug",
      title: "Save button does nothing on profile page",
      description:
        "Clicking Save changes on Settings > Profile doesn't persist name changes; no request is sent.",
      metadata: { url: "https://app.kanbo.io/settings/profile" },
    },
    same: false,
    note: "same button: typo vs broken action",
  },
  {
    a: {
      type: "bug",
      title: "Profile changes aren't saved",
      description:
        "Changing my display name on Settings > Profile and clicking Save changes: nothing happens, after reload the old name is back.",
      metadata: { url: "https://app.kanbo.io/settings/profile" },
    },
    b: {
      type: "bug",
      title: "Save button does nothing on profile page",
      description:
        "Clicking Save changes on Settings > Profile doesn't persist name changes; DevTools shows no request sent.",
      metadata: { url: "https://app.kanbo.io/settings/profile" },
    },
    same: true,
    note: "same broken save",
  },
  {
    a: {
      type: "bug",
      title: "Lintel flags valid optional chaining as error",
      description: "a?.b?.() is reported as 'Unexpected token' by Lintel 3.4.0 in .js files.",
    },
    b: {
      type: "bug",
      title: "Refund email shows negative amount twice",
      description: "The refund confirmation email reads 'Refunded: --$20.00'.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Save button misaligned on profile page",
      description:
        "On Settings > Profile the Save changes button overlaps the Cancel button in Firefox at 125% zoom.",
      metadata: { url: "https://app.kanbo.io/settings/profile" },
    },
    b: {
      type: "bug",
      title: "Save button disabled on profile page",
      description:
        "Save changes on Settings > Profile stays greyed out after editing only the bio field; editing the name enables it.",
      metadata: { url: "https://app.kanbo.io/settings/profile" },
    },
    same: false,
    note: "same button: layout vs enabled state",
  },
  {
    a: {
      type: "bug",
      title: "API keys page missing on Free plan",
      description:
        "Free workspace owners can't see Settings > API keys at all; docs say Free includes 1 key.",
      metadata: { url: "https://app.kanbo.io/settings" },
    },
    b: {
      type: "bug",
      title: "API keys page missing on Team plan",
      description:
        "On the Team plan Settings > API keys shows, but 'Create key' returns 403 insufficient_role for admins.",
      metadata: { url: "https://app.kanbo.io/settings/api-keys" },
    },
    same: false,
    note: "different plan tier and failure",
  },
  {
    a: {
      type: "bug",
      title: "Free plan can't access API keys",
      description:
        "Settings > API keys is hidden for Free workspaces even though the pricing page says 1 API key is included.",
      metadata: { url: "https://app.kanbo.io/settings" },
    },
    b: {
      type: "bug",
      title: "API keys page missing on Free plan",
      description:
        "Owner of a Free workspace here. The API keys entry isn't in the settings sidebar and /settings/api-keys redirects to /settings. Pricing lists 1 key for Free.",
      metadata: { url: "https://app.kanbo.io/settings/api-keys" },
    },
    same: true,
    note: "same plan gating bug",
  },
  {
    a: {
      type: "bug",
      title: "Can't @mention guest users in comments",
      description: "Typing @ in a card comment lists members only; guests invited to the board don't appear.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    b: {
      type: "bug",
      title: "Mention autocomplete doesn't show guests",
      description:
        "Our client (board guest) can't be tagged in comments, the @ suggestions skip him. Full members show up.",
      metadata: { url: "https://app.kanbo.io/boards/12" },
    },
    same: true,
    note: "same missing guests in mention list",
  },
  {
    a: {
      type: "bug",
      title: "Can't @mention guest users in comments",
      description: "The @ list doesn't include board guests.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    b: {
      type: "bug",
      title: "Mentions notify the wrong user",
      description:
        "Mentioning @Alex notifies Alex Kim instead of Alex Romero, even when Alex Romero is picked from the list.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    same: false,
    note: "missing guests vs wrong user notified",
  },
  {
    a: {
      type: "bug",
      title: "Typo on pricing page",
      description: "The Pro column says 'Unlimted projects'.",
      metadata: { url: "https://kanbo.io/pricing" },
    },
    b: {
      type: "bug",
      title: "Typo on pricing page",
      description: "The FAQ at the bottom of /pricing says 'recieve' instead of 'receive'.",
      metadata: { url: "https://kanbo.io/pricing" },
    },
    same: false,
    note: "identical title, different typo",
  },
  {
    a: {
      type: "bug",
      title: "Typo on pricing page: Unlimted",
      description: "The Pro column says 'Unlimted projects'.",
      metadata: { url: "https://kanbo.io/pricing" },
    },
    b: {
      type: "bug",
      title: "spelling mistake on pricing",
      description: "'Unlimted' should be 'Unlimited' in the Pro plan features list on kanbo.io/pricing.",
    },
    same: true,
    note: "same typo",
  },
  {
    a: {
      type: "bug",
      title: "Modal dialogs not announced by screen reader",
      description:
        "With VoiceOver on macOS, opening the 'New project' modal gives no announcement and focus stays on the button behind it.",
      metadata: { url: "https://app.kanbo.io/projects" },
    },
    b: {
      type: "bug",
      title: "Focus not moved into New project dialog",
      description:
        "Keyboard users: after pressing Enter on New project, Tab keeps moving through the page behind the modal. NVDA doesn't read the dialog title.",
      metadata: { url: "https://app.kanbo.io/projects" },
    },
    same: true,
    note: "same missing focus management on the dialog",
  },
  {
    a: {
      type: "bug",
      title: "Icon buttons have no accessible name",
      description:
        "Toolbar icon buttons (bold, italic, link) in the comment editor are read as just 'button' by NVDA.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    b: {
      type: "bug",
      title: "Low contrast on disabled buttons",
      description: "Disabled buttons use #B0B0B0 on white, 2.1:1 contrast.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    same: false,
    note: "different accessibility defects",
  },
  {
    a: {
      type: "bug",
      title: "Zoom to 200% hides the nav menu",
      description:
        "At 200% browser zoom, the left navigation disappears and there is no hamburger to open it.",
      metadata: { url: "https://app.kanbo.io/boards" },
    },
    b: {
      type: "bug",
      title: "Navigation inaccessible at high zoom",
      description:
        "WCAG 1.4.10 reflow failure: at 200% zoom on a 1280px window the sidebar nav is hidden and no toggle is shown.",
      metadata: { url: "https://app.kanbo.io/projects" },
    },
    same: true,
    note: "same reflow bug",
  },
  {
    a: {
      type: "bug",
      title: "Zoom to 200% hides the nav menu",
      description: "At 200% zoom the left navigation disappears with no toggle.",
      metadata: { url: "https://app.kanbo.io/boards" },
    },
    b: {
      type: "bug",
      title: "Zoom to 200% overlaps table text",
      description: "At 200% zoom the Reports table columns overlap each other and text is unreadable.",
      metadata: { url: "https://app.kanbo.io/reports" },
    },
    same: false,
    note: "same zoom level, different component",
  },
  {
    a: {
      type: "feedback",
      title: "Drag handles are too small",
      description: "On touch screens the handle to drag cards is tiny and hard to hit.",
      metadata: { url: "https://app.kanbo.io/boards/7" },
    },
    b: {
      type: "bug",
      title: "Payout CSV missing fee column",
      description:
        "The payouts export no longer includes the 'fee' column, so our reconciliation script breaks.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Reward item 1 cannot be claimed",
      description:
        "On the Season 4 battle pass, reward item 1 (Bronze Chest) shows 'Already claimed' although my inventory doesn't have it.",
    },
    b: {
      type: "bug",
      title: "Reward item 2 cannot be claimed",
      description:
        "Reward item 2 (XP Boost) on the Season 4 pass has a greyed-out Claim button even after reaching tier 2. Item 1 claimed fine.",
    },
    same: false,
    note: "different numbered item and symptom",
  },
  {
    a: {
      type: "bug",
      title: "Reward item 1 cannot be claimed",
      description:
        "On the Season 4 battle pass, reward item 1 (Bronze Chest) shows 'Already claimed' although my inventory doesn't have it.",
    },
    b: {
      type: "bug",
      title: "Bronze Chest says already claimed but not in inventory",
      description:
        "Season 4 pass tier 1 reward (Bronze Chest): Claim shows 'Already claimed', but there's no chest in my inventory. Account EU-4471.",
    },
    same: true,
    note: "same item and symptom, no shared number",
  },
  {
    a: {
      type: "bug",
      title: "Daily login reward not granted",
      description: "Logged in on day 5 of my streak and received no coins.",
    },
    b: {
      type: "bug",
      title: "Weekly login reward not granted",
      description:
        "Completed 7 daily logins but the weekly bonus chest never appeared; daily rewards arrive fine.",
    },
    same: false,
    note: "daily vs weekly reward",
  },
  {
    a: {
      type: "bug",
      title: "Leaderboard shows wrong rank on iOS",
      description:
        "The iOS app shows my rank from last season (#3) on the Season 4 leaderboard; web shows #41.",
    },
    b: {
      type: "bug",
      title: "Leaderboard shows wrong rank on Android",
      description:
        "On Android everyone is shifted by one: I'm #12 on web but #13 in the app, and #1 is shown as #2.",
    },
    same: false,
    note: "different platform, stale season vs off-by-one",
  },
  {
    a: {
      type: "bug",
      title: "Friend invite code says expired",
      description:
        "Invite codes generated in Social > Invite are rejected with 'Code expired' when my friend enters them seconds later.",
    },
    b: {
      type: "bug",
      title: "invite codes dont work",
      description:
        "made a new invite code, friend typed it in right away, game says code expired. tried 3 codes.",
    },
    same: true,
    note: "same invite expiry bug",
  },
  {
    a: {
      type: "bug",
      title: "Friend invite code says expired",
      description: "Fresh invite codes are rejected as expired.",
    },
    b: {
      type: "bug",
      title: "Friend invite code gives no reward",
      description:
        "Friend joined with my invite code and reached level 5, but neither of us got the 500-gem referral reward.",
    },
    same: false,
    note: "same invite system, redeem failure vs missing reward",
  },
  {
    a: {
      type: "bug",
      title: "Video stutters at 1080p in Chrome",
      description:
        "Playback at 1080p in Chrome 125 stutters every few seconds; dropped frames climb fast in the stats overlay. 720p is smooth. Hardware acceleration is on.",
    },
    b: {
      type: "bug",
      title: "Choppy playback at 1080p on Chrome",
      description:
        "Streams become jerky when quality is 1080p, only on Chrome (Firefox ok). The stats overlay shows hundreds of dropped frames.",
    },
    same: true,
    note: "same dropped-frame stutter",
  },
  {
    a: {
      type: "bug",
      title: "Video stutters at 1080p in Chrome",
      description: "Playback at 1080p in Chrome stutters; dropped frames climb.",
    },
    b: {
      type: "bug",
      title: "Video stutters at 1080p on Smart TV app",
      description:
        "The LG webOS app stutters at 1080p; buffer health drops to 0 repeatedly although the network is 300 Mbps. No dropped frames.",
    },
    same: false,
    note: "different platform, buffering vs decoding",
  },
  {
    a: {
      type: "bug",
      title: "Subtitles out of sync",
      description: "Subtitles on 'The Long Shore' episode 3 appear about 2 seconds late throughout.",
    },
    b: {
      type: "bug",
      title: "Subtitles out of sync",
      description:
        "After seeking, subtitles freeze on the last line shown before the seek until playback is restarted; happens on any title.",
    },
    same: false,
    note: "identical title, content timing vs player seek bug",
  },
  {
    a: {
      type: "bug",
      title: "Captions lag behind audio on The Long Shore ep 3",
      description:
        "English captions trail the dialogue by around 2s for the whole episode. Other episodes are fine.",
    },
    b: {
      type: "bug",
      title: "Subtitles out of sync",
      description: "Subtitles on 'The Long Shore' episode 3 appear about 2 seconds late throughout.",
    },
    same: true,
    note: "same episode and offset",
  },
  {
    a: {
      type: "bug",
      title: "Casting to Chromecast disconnects after 10 minutes",
      description:
        "Every cast session to my Chromecast (Google TV) drops after exactly ~10 minutes and the phone shows 'Cast session ended'.",
    },
    b: {
      type: "bug",
      title: "Chromecast session drops 10 min in",
      description:
        "Streamcast Android 7.2: casting stops about ten minutes into any show; reconnecting works for another ten.",
    },
    same: true,
    note: "same cast timeout",
  },
  {
    a: {
      type: "bug",
      title: "Apple Watch app crashes when starting an interval workout",
      description: "Trailhead on watchOS 10.4 quits as soon as I start any interval workout.",
    },
    b: {
      type: "bug",
      title: "Image alt text dialog closes on Enter",
      description:
        "Pressing Enter in the alt text field of the email editor closes the dialog without saving.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Casting to Chromecast disconnects after 10 minutes",
      description: "Cast sessions drop after about 10 minutes.",
    },
    b: {
      type: "bug",
      title: "Casting to AirPlay has no audio",
      description:
        "AirPlay to an Apple TV shows the video but there's no sound; the iPhone speaker is also silent.",
    },
    same: false,
    note: "different casting protocol and symptom",
  },
  {
    a: {
      type: "bug",
      title: "Booking page shows times in wrong timezone",
      description:
        "Invitees in New York see my 9am (London) slots as 9am instead of 4am. The page says 'Times in your local zone'.",
      metadata: { url: "https://slotwise.app/anna/30min" },
    },
    b: {
      type: "bug",
      title: "Available slots not converted to visitor timezone",
      description:
        "My booking link shows the same clock times to everyone regardless of location; a client in New York booked what he thought was 9am his time and it was 9am mine.",
      metadata: { url: "https://slotwise.app/anna/30min" },
    },
    same: true,
    note: "same timezone conversion bug",
  },
  {
    a: {
      type: "bug",
      title: "Booking page shows times in wrong timezone",
      description: "Visitors in New York see London clock times.",
      metadata: { url: "https://slotwise.app/anna/30min" },
    },
    b: {
      type: "bug",
      title: "Booking page shows wrong availability after DST change",
      description:
        "For the week after the clocks change (March 31), all my slots are shifted one hour later than my working hours, for every visitor.",
      metadata: { url: "https://slotwise.app/anna/30min" },
    },
    same: false,
    note: "visitor conversion vs DST shift of owner hours",
  },
  {
    a: {
      type: "bug",
      title: "Google Calendar sync misses events",
      description:
        "Events created in Google Calendar don't block slots in Slotwise, so people double-book me.",
    },
    b: {
      type: "bug",
      title: "Outlook Calendar sync misses events",
      description:
        "Outlook events marked 'Tentative' don't block slots; 'Busy' ones do. Google isn't connected.",
    },
    same: false,
    note: "different calendar provider and condition",
  },
  {
    a: {
      type: "bug",
      title: "Double bookings because Google events not respected",
      description:
        "Slots that overlap events on my Google Calendar are still bookable. Calendar connected, 'check for conflicts' on.",
    },
    b: {
      type: "bug",
      title: "Google Calendar sync misses events",
      description:
        "Events created in Google Calendar don't block availability in Slotwise, so people double-book me.",
    },
    same: true,
    note: "same conflict check failure",
  },
  {
    a: {
      type: "bug",
      title: "Booking confirmation email missing calendar invite",
      description:
        "Confirmation emails no longer include the .ics attachment, so invitees have to add the meeting manually.",
    },
    b: {
      type: "bug",
      title: "No .ics in confirmation emails",
      description:
        "Since last week our invitees get the 'You're booked' email without the calendar file attached.",
    },
    same: true,
    note: "same missing attachment",
  },
  {
    a: {
      type: "bug",
      title: "Booking confirmation email missing calendar invite",
      description: "Confirmation emails no longer include the .ics attachment.",
    },
    b: {
      type: "bug",
      title: "Calendar invite has wrong time for attendees",
      description:
        "The .ics attached to confirmations has no TZID, so Outlook users in other timezones see the meeting at the wrong hour.",
    },
    same: false,
    note: "missing attachment vs wrong time in it",
  },
  {
    a: {
      type: "bug",
      title: "Cannot navigate date picker with keyboard",
      description: "On the booking page the date picker ignores arrow keys; only the mouse works.",
      metadata: { url: "https://slotwise.app/anna/30min" },
    },
    b: {
      type: "bug",
      title: "Date picker not announced by screen reader",
      description:
        "VoiceOver reads each day only as a number, with no month and no indication whether it has availability.",
      metadata: { url: "https://slotwise.app/anna/30min" },
    },
    same: false,
    note: "same widget: keyboard handling vs labels",
  },
  {
    a: {
      type: "bug",
      title: "Route avoids tolls even when option is off",
      description:
        "With 'Avoid tolls' unchecked, routes from Lyon to Marseille still take the N7 instead of the A7, adding 40 minutes.",
    },
    b: {
      type: "bug",
      title: "Route uses tolls even when 'Avoid tolls' is on",
      description:
        "With 'Avoid tolls' checked, the suggested route includes the A1 toll section between Paris and Lille.",
    },
    same: false,
    note: "opposite toll behaviour",
  },
  {
    a: {
      type: "bug",
      title: "Voice guidance reads 'Str.' letter by letter",
      description:
        "In German voice guidance, street names with 'Str.' are spelled out as 'S-T-R' instead of 'Strasse'. Android 14, Routefox 8.1.",
    },
    b: {
      type: "bug",
      title: "German TTS mispronounces street abbreviation",
      description:
        "Turn-by-turn in German says 'Haupt S T R' for Hauptstr. Should say Hauptstrasse. Pixel 8, v8.1.",
    },
    same: true,
    note: "same German abbreviation expansion bug",
  },
  {
    a: {
      type: "bug",
      title: "Voice guidance reads 'Str.' letter by letter",
      description: "German voice guidance spells 'Str.' as S-T-R. Routefox 8.1.",
    },
    b: {
      type: "bug",
      title: "Voice guidance reads 'Bd' letter by letter",
      description: "In French voice guidance, 'Bd' (boulevard) is read as 'B D'. Routefox 8.0 on iOS.",
    },
    same: false,
    note: "different language's abbreviation table",
  },
  {
    a: {
      type: "feature",
      title: "Export contacts to vCard",
      description: "Please add a vCard export for selected contacts.",
    },
    b: {
      type: "feature",
      title: "Offline reading mode",
      description: "Let me download books to read on a plane without connection.",
    },
    same: false,
    note: "unrelated feature requests",
  },
  {
    a: {
      type: "bug",
      title: "Offline maps download stuck at 'Preparing'",
      description:
        "Downloading the Portugal region for offline use stays at 'Preparing...' indefinitely on Wi-Fi. Storage has 20 GB free.",
    },
    b: {
      type: "bug",
      title: "Can't download offline region",
      description:
        "Tried to save Portugal offline before my trip, it just says preparing forever. iPhone 13, plenty of space.",
    },
    same: true,
    note: "same stuck offline download",
  },
  {
    a: {
      type: "bug",
      title: "Offline maps download stuck at 'Preparing'",
      description: "The Portugal offline download stays at 'Preparing...'.",
    },
    b: {
      type: "bug",
      title: "Offline maps deleted after app update",
      description:
        "After updating to 8.1, all my downloaded offline regions are gone and need to be downloaded again.",
    },
    same: false,
    note: "download stuck vs downloaded data lost",
  },
  {
    a: {
      type: "bug",
      title: "Scheduled campaign sent an hour early",
      description: "A campaign scheduled for 10:00 CET went out at 09:00 CET on April 2.",
    },
    b: {
      type: "bug",
      title: "Campaigns go out 1h before scheduled time",
      description:
        "Since the clocks changed on March 31 every scheduled send goes out one hour early. Account timezone Europe/Paris.",
    },
    same: true,
    note: "same DST offset bug; second report names the cause",
  },
  {
    a: {
      type: "bug",
      title: "Scheduled campaign sent an hour early",
      description: "A campaign scheduled for 10:00 CET went out at 09:00 CET.",
    },
    b: {
      type: "bug",
      title: "Scheduled campaign never sent",
      description: "A campaign scheduled for 10:00 stays in 'Scheduled' forever; I had to send it manually.",
    },
    same: false,
    note: "early vs never",
  },
  {
    a: {
      type: "bug",
      title: "Unsubscribe link broken",
      description: "The unsubscribe link in the campaign footer leads to a 404 at /u/abc123.",
    },
    b: {
      type: "feature",
      title: "Let subscribers choose which lists to leave",
      description: "A preference center instead of all-or-nothing unsubscribe.",
    },
    same: false,
    note: "bug vs related feature request",
  },
  {
    a: {
      type: "bug",
      title: "Inbox preview shows 'View in browser' instead of preheader",
      description:
        "In Gmail and Apple Mail the preview line reads 'View in browser | Unsubscribe' although a preheader is set in the campaign settings.",
    },
    b: {
      type: "bug",
      title: "Preheader text not used",
      description:
        "Preview snippet of our sends is the footer/web-version text, not the preheader we entered. Started with the new editor.",
    },
    same: true,
    note: "same preheader not emitted",
  },
  {
    a: {
      type: "bug",
      title: "Preheader text not used",
      description: "Inbox preview shows the 'View in browser' text instead of our preheader.",
    },
    b: {
      type: "bug",
      title: "Preheader text visible at top of email",
      description:
        "The preheader is now shown as a visible grey line above the logo in Outlook; it should be hidden.",
    },
    same: false,
    note: "preheader missing vs preheader visible",
  },
  {
    a: {
      type: "bug",
      title: "Email editor: image block can't be resized",
      description: "Dragging the corner handle of an image block does nothing; width stays at 600px.",
    },
    b: {
      type: "bug",
      title: "Email editor: image block misaligned in Outlook",
      description: "Centered images render left-aligned in Outlook 2019 desktop; fine in Gmail.",
    },
    same: false,
    note: "editor interaction vs rendering in a client",
  },
  {
    a: {
      type: "bug",
      title: "Import contacts from CSV fails with semicolon delimiter",
      description:
        "A CSV exported from Excel in German locale (';' separated) imports every row into the Name field.",
    },
    b: {
      type: "bug",
      title: "CSV import puts everything in one column",
      description:
        "Uploading contacts.csv saved from Excel in de-DE puts the whole line into First name. Commas work, semicolons don't.",
    },
    same: true,
    note: "same delimiter detection bug",
  },
  {
    a: {
      type: "bug",
      title: "Import contacts from CSV fails with semicolon delimiter",
      description: "Semicolon-separated CSVs import every row into one field.",
    },
    b: {
      type: "bug",
      title: "Import contacts from CSV fails with UTF-8 BOM",
      description:
        "Files saved with a BOM make the first header read as 'ï»¿Email', so the Email mapping is missing and the import errors 'email required'.",
    },
    same: false,
    note: "same import, delimiter vs BOM",
  },
  {
    a: {
      type: "bug",
      title: "Deal amount rounds to whole dollars",
      description: "Entering 1,250.75 as the deal value saves 1,251.",
    },
    b: {
      type: "bug",
      title: "Deal amount loses currency",
      description: "Deals created in EUR show a $ sign after saving; the number itself is unchanged.",
    },
    same: false,
    note: "rounding vs currency label",
  },
  {
    a: {
      type: "bug",
      title: "Subtitles missing for Spanish audio track",
      description: "When the audio track is Spanish, the subtitle menu lists no languages at all.",
    },
    b: {
      type: "bug",
      title: "Sandbox shipments show real tracking events",
      description:
        "Test shipments in the sandbox receive real carrier tracking events from an unrelated parcel.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Deal value rounding",
      description: "Deal amounts with cents get rounded: 1250.75 becomes 1251 after save.",
    },
    b: {
      type: "bug",
      title: "Cents are dropped from deal amount",
      description:
        "If I enter $499.99 as the deal value it's stored as $500. Happens in the edit form and via PATCH /deals/:id.",
    },
    same: true,
    note: "same rounding, one adds API path",
  },
  {
    a: {
      type: "bug",
      title: "Activity timeline shows oldest events first",
      description:
        "On contact pages the activity timeline is now sorted oldest to newest; it used to show the latest email at the top.",
    },
    b: {
      type: "bug",
      title: "Contact timeline order reversed",
      description:
        "Since Thursday the contact timeline starts with events from 2021; I have to scroll to the bottom to see today's call.",
    },
    same: true,
    note: "same sort regression",
  },
  {
    a: {
      type: "bug",
      title: "Activity timeline shows oldest events first",
      description: "Contact timeline is sorted oldest first.",
    },
    b: {
      type: "bug",
      title: "Activity timeline missing logged calls",
      description:
        "Calls logged from the mobile app don't appear in the contact's activity timeline; emails and meetings do.",
    },
    same: false,
    note: "order vs missing event type",
  },
  {
    a: {
      type: "bug",
      title: "Ticket reply editor loses text",
      description: "Text typed in the reply box is lost when switching to another ticket tab and back.",
    },
    b: {
      type: "bug",
      title: "Ticket reply editor loses formatting",
      description: "Pasting from Google Docs strips bold and bullet lists in the reply editor.",
    },
    same: false,
    note: "lost draft vs stripped formatting",
  },
  {
    a: {
      type: "bug",
      title: "Draft reply disappears when switching tickets",
      description: "If I start a reply on ticket #4412, open #4413, then go back, the draft is gone.",
    },
    b: {
      type: "bug",
      title: "Ticket reply editor loses text",
      description: "Text typed in the reply box is lost when switching to another ticket tab and back.",
    },
    same: true,
    note: "same lost draft",
  },
  {
    a: {
      type: "bug",
      title: "Macros not applying tags",
      description: "Running the macro 'Refund approved' adds the reply but not the 'refund' tag.",
    },
    b: {
      type: "bug",
      title: "Macros not applying to merged tickets",
      description:
        "Running any macro on a merged ticket does nothing at all - no reply, no tags, no status change.",
    },
    same: false,
    note: "partial macro effect vs merged-ticket failure",
  },
  {
    a: {
      type: "bug",
      title: "CSAT survey sent for tickets closed as spam",
      description:
        "Tickets we close with the Spam status still trigger the satisfaction survey email to the sender.",
    },
    b: {
      type: "bug",
      title: "Spam tickets get satisfaction emails",
      description:
        "Spammers are receiving our 'How did we do?' survey because marking a ticket as spam counts as solving it.",
    },
    same: true,
    note: "same survey trigger bug",
  },
  {
    a: {
      type: "bug",
      title: "CSAT survey sent for tickets closed as spam",
      description: "Spam-closed tickets trigger the survey email.",
    },
    b: {
      type: "bug",
      title: "CSAT survey link returns 404",
      description: "Customers clicking a rating in the survey email land on a 404 at /csat/r/...",
    },
    same: false,
    note: "wrong trigger vs broken link",
  },
  {
    a: {
      type: "bug",
      title: "Keyboard covers the message input on Android",
      description:
        "In the Supportly chat widget on Android Chrome, the on-screen keyboard hides the text box so you can't see what you type.",
    },
    b: {
      type: "bug",
      title: "can't see what I'm typing in chat widget on phone",
      description: "Support chat on my Galaxy S23: when the keyboard opens, the input field stays behind it.",
    },
    same: true,
    note: "same Android keyboard overlap",
  },
  {
    a: {
      type: "bug",
      title: "Keyboard covers the message input on Android",
      description: "On Android Chrome the keyboard hides the chat input.",
    },
    b: {
      type: "bug",
      title: "Chat input broken with keyboard open on iOS",
      description:
        "On iOS Safari the chat input is visible but the page jumps to the top after every character typed.",
    },
    same: false,
    note: "different platform and symptom",
  },
  {
    a: {
      type: "bug",
      title: "Extension crashes on activation in VS Code 1.90",
      description:
        "Lintel 3.4.0 fails to activate after updating VS Code to 1.90: 'Activating extension lintel failed: Cannot find module node:sqlite'.",
    },
    b: {
      type: "bug",
      title: "lintel won't start: cannot find module 'node:sqlite'",
      description:
        "Output panel: Activating extension 'lintel' failed. Error: Cannot find module 'node:sqlite'. VS Code 1.90.0, Windows.",
    },
    same: true,
    note: "same activation error",
  },
  {
    a: {
      type: "bug",
      title: "Shipping estimate shows 'undefined days'",
      description: "Product pages show 'Arrives in undefined days' for customers in Norway.",
      metadata: { url: "https://shop.lumenwear.com/products/linen-shirt" },
    },
    b: {
      type: "bug",
      title: "2FA backup codes download as empty txt",
      description: "Clicking 'Download backup codes' saves an empty backup-codes.txt.",
      metadata: { url: "https://login.authwell.com/settings/2fa" },
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "Extension crashes on activation in VS Code 1.90",
      description: "Lintel 3.4.0 fails to activate on VS Code 1.90: Cannot find module node:sqlite.",
    },
    b: {
      type: "bug",
      title: "Extension crashes on activation in VS Code 1.89",
      description:
        "Lintel 3.3.2 on VS Code 1.89 fails with 'ENOENT: no such file or directory, open .lintelrc' when the workspace has no config file.",
    },
    same: false,
    note: "different versions and error",
  },
  {
    a: {
      type: "feature",
      title: "Fix all problems on save",
      description: "Please add an option to apply all Lintel quick fixes when saving a file.",
    },
    b: {
      type: "bug",
      title: "Fix on save reorders imports incorrectly",
      description:
        "With lintel.fixOnSave enabled, saving moves 'use client' below the imports, breaking Next.js components.",
    },
    same: false,
    note: "feature request vs bug in the shipped option",
  },
  {
    a: {
      type: "bug",
      title: "Lintel slows down typing in large files",
      description:
        "In files over ~5,000 lines, typing lags by half a second per keystroke with Lintel enabled; disabling the extension fixes it.",
    },
    b: {
      type: "bug",
      title: "Editor lag in big files when Lintel is on",
      description:
        "keystrokes take ages to appear in our 6k-line generated file. Turned off lintel and it's instant again.",
    },
    same: true,
    note: "same large-file lag",
  },
  {
    a: {
      type: "bug",
      title: "Lintel slows down typing in large files",
      description: "Typing lags in files over 5,000 lines with Lintel enabled.",
    },
    b: {
      type: "bug",
      title: "Lintel uses 100% CPU when idle",
      description:
        "With no file open, the Lintel language server process sits at 100% CPU; it's watching node_modules.",
    },
    same: false,
    note: "per-keystroke lag vs idle CPU from file watching",
  },
  {
    a: {
      type: "bug",
      title: "Japanese text shows as boxes",
      description: "On Android 10, book titles in Japanese render as empty boxes in the library view.",
    },
    b: {
      type: "bug",
      title: "Arabic text shows left-to-right",
      description: "Arabic book descriptions are laid out left-to-right, with punctuation at the wrong end.",
    },
    same: false,
    note: "different script and defect",
  },
  {
    a: {
      type: "bug",
      title: "Spanish translation missing on settings page",
      description:
        "With the language set to Espanol, the Settings page is entirely in English; other pages are translated.",
    },
    b: {
      type: "bug",
      title: "Settings screen not translated (es)",
      description:
        "The Ajustes page shows English labels like 'Notifications' and 'Delete account' when the app language is Spanish.",
    },
    same: true,
    note: "same missing Spanish strings",
  },
  {
    a: {
      type: "bug",
      title: "Spanish translation missing on settings page",
      description: "With Spanish selected, Settings is in English.",
    },
    b: {
      type: "bug",
      title: "French translation missing on settings page",
      description:
        "With the language set to French, the Settings page shows raw keys like settings.notifications.title.",
    },
    same: false,
    note: "different locale; raw keys vs English fallback",
  },
  {
    a: {
      type: "bug",
      title: "Date format wrong in German",
      description: "Reading history shows dates as 05/06/2024 for de-DE; it should be 06.05.2024.",
    },
    b: {
      type: "bug",
      title: "Date format wrong in US English",
      description: "For en-US, due dates on the loans page are raw ISO strings like 2024-06-05T00:00:00Z.",
    },
    same: false,
    note: "different locale and page",
  },
  {
    a: {
      type: "bug",
      title: "Plural forms wrong in Polish",
      description: "The library header says '5 książki' but Polish needs '5 książek' for 5+; 2-4 is correct.",
    },
    b: {
      type: "bug",
      title: "Polish book count grammar",
      description:
        "polish ui: '12 książki' should be '12 książek'. looks like only one/few/other forms are used, 'many' is missing.",
    },
    same: true,
    note: "same missing plural category",
  },
  {
    a: {
      type: "bug",
      title: "Plural forms wrong in Polish",
      description: "'5 książki' should be '5 książek'.",
    },
    b: {
      type: "bug",
      title: "Polish characters missing in PDF export",
      description: "Exported reading notes drop ą, ę and ł: 'książka' becomes 'ksika' in the PDF.",
    },
    same: false,
    note: "same language, grammar vs font encoding",
  },
  {
    a: {
      type: "bug",
      title: "GraphQL query returns null for nested field",
      description:
        "query { project(id: 1) { owner { email } } } returns owner: null without errors when the owner is deactivated.",
    },
    b: {
      type: "bug",
      title: "GraphQL query returns error for nested field",
      description:
        "Requesting project.members(first: 100) fails with 'Cannot return null for non-nullable field Member.avatarUrl' for members without avatars.",
    },
    same: false,
    note: "silent null vs non-null violation error",
  },
  {
    a: {
      type: "bug",
      title: "Map search can't find postcodes with spaces",
      description: "Searching 'SW1A 1AA' finds nothing; 'SW1A1AA' works.",
    },
    b: {
      type: "bug",
      title: "Macro list not sorted",
      description:
        "The macros dropdown in the ticket view is in creation order instead of alphabetical, hard to find anything.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "members query fails when a user has no avatar",
      description:
        "project.members errors with 'Cannot return null for non-nullable field Member.avatarUrl'.",
    },
    b: {
      type: "bug",
      title: "GraphQL error: non-nullable avatarUrl",
      description:
        "Any members list containing a user without a profile picture throws 'Cannot return null for non-nullable field Member.avatarUrl' and the whole query fails.",
    },
    same: true,
    note: "same schema nullability bug",
  },
  {
    a: {
      type: "bug",
      title: "terraform plan shows perpetual diff for tags",
      description:
        "Every plan shows tags changing from {} to {env=prod} on skiff_app even after apply. Provider 1.6.0.",
    },
    b: {
      type: "bug",
      title: "terraform apply fails for tags with uppercase keys",
      description:
        "Applying tags = { Env = \"prod\" } fails with 'invalid tag key: must be lowercase'; docs don't mention this. Provider 1.6.0.",
    },
    same: false,
    note: "same resource attribute, perpetual diff vs validation error",
  },
  {
    a: {
      type: "bug",
      title: "Perpetual diff on skiff_app tags",
      description:
        "Every terraform plan shows tags changing from {} to {env=prod} on skiff_app even after apply. Provider 1.6.0.",
    },
    b: {
      type: "bug",
      title: "terraform plan never clean: tags always updated in-place",
      description:
        "Provider v1.6.0: the skiff_app resource reports ~ tags on every plan; apply succeeds but the next plan shows the same change.",
    },
    same: true,
    note: "same perpetual diff",
  },
  {
    a: {
      type: "bug",
      title: "Error 'ECONNRESET' when pushing to registry",
      description: "docker push to registry.boxport.io fails with ECONNRESET on layers larger than ~1 GB.",
    },
    b: {
      type: "bug",
      title: "Error 'ETIMEDOUT' when pushing to registry",
      description:
        "docker push to registry.boxport.io times out (ETIMEDOUT) immediately from hosts with IPv6 enabled; forcing IPv4 works, size doesn't matter.",
    },
    same: false,
    note: "different error and cause",
  },
  {
    a: {
      type: "bug",
      title: "Push of big image layers fails with ECONNRESET",
      description:
        "docker push to registry.boxport.io fails with 'read: connection reset by peer' on layers larger than ~1 GB. Smaller images push fine.",
    },
    b: {
      type: "bug",
      title: "ECONNRESET pushing to boxport",
      description:
        "Pushing a 3.2GB ML image: every time the 1.4GB layer reaches ~1GB uploaded it dies with ECONNRESET. Retrying restarts from 0.",
    },
    same: true,
    note: "same large-layer reset",
  },
  {
    a: {
      type: "bug",
      title: "`quill init` fails on Windows paths with spaces",
      description:
        "Running quill init in C:\\Users\\John Smith\\projects fails with 'ENOENT: no such file or directory, C:\\Users\\John'.",
    },
    b: {
      type: "bug",
      title: "init command broken when username has a space",
      description:
        "On Windows, quill init throws ENOENT pointing at a path truncated at the space in my user folder ('Ana Lopez').",
    },
    same: true,
    note: "same unquoted path bug",
  },
  {
    a: {
      type: "bug",
      title: "`quill init` fails on Windows paths with spaces",
      description: "quill init in a folder with a space fails with ENOENT at the truncated path.",
    },
    b: {
      type: "bug",
      title: "`quill init` fails on Windows with long paths",
      description: "In a deeply nested folder (path over 260 characters) quill init fails with ENAMETOOLONG.",
    },
    same: false,
    note: "spaces vs path length",
  },
  {
    a: {
      type: "bug",
      title: "Timer stops when screen locks",
      description:
        "In cooking mode the step timer pauses when the phone screen locks (iOS 17). Unlocking shows it frozen at the lock time.",
    },
    b: {
      type: "bug",
      title: "cook mode timer doesnt run in background",
      description:
        "set a 20 min timer on step 4, locked my iphone, came back after 10 mins and it still said 17:42.",
    },
    same: true,
    note: "same background timer bug",
  },
  {
    a: {
      type: "bug",
      title: "Timer stops when screen locks",
      description: "In cooking mode the timer pauses when the iPhone screen locks.",
    },
    b: {
      type: "bug",
      title: "Timer alarm doesn't sound when screen locks",
      description:
        "The timer keeps counting correctly in the background, but when it reaches 0 on a locked Android phone there's no sound or notification.",
    },
    same: false,
    note: "timer pausing vs alarm not firing",
  },
  {
    a: {
      type: "bug",
      title: "Serving size scaling shows long decimals",
      description: "Scaling a recipe from 4 to 6 servings shows '0.49999999 cup' instead of 1/2 cup.",
    },
    b: {
      type: "feature",
      title: "Convert units when scaling servings",
      description:
        "Scaling to 12 servings shows 24 tsp salt; it would be nice to convert to larger units like 1/2 cup.",
    },
    same: false,
    note: "display bug vs related feature request",
  },
  {
    a: {
      type: "bug",
      title: "App freezes on splash screen",
      description:
        "Recipebox 3.1.0 on iPad (iPadOS 17.4) stays on the splash screen forever after the update.",
    },
    b: {
      type: "bug",
      title: "App freezes on splash screen",
      description:
        "Recipebox 3.1.0 on iPad with iPadOS 17.4 stays on the splash screen indefinitely after updating.",
    },
    same: true,
    note: "near-identical retry",
  },
  {
    a: {
      type: "bug",
      title: "Slack slash command times out",
      description:
        "/harbor ack returns 'operation_timeout' from Slack; the incident does get acknowledged a few seconds later.",
    },
    b: {
      type: "bug",
      title: "Recipe photos rotate sideways",
      description: "Photos taken in portrait on Android show rotated 90 degrees after upload.",
    },
    same: false,
    note: "unrelated",
  },
  {
    a: {
      type: "bug",
      title: "App freezes on splash screen",
      description:
        "Recipebox 3.1.0 on iPad (iPadOS 17.4) stays on the splash screen forever after the update.",
    },
    b: {
      type: "bug",
      title: "App freezes on splash screen",
      description:
        "Recipebox 3.0.2 on an Amazon Fire HD 10 freezes on the splash screen only when offline; online it starts normally.",
    },
    same: false,
    note: "identical title, different version, device and trigger",
  },
  {
    a: {
      type: "bug",
      title: "Imported recipe from URL loses ingredient quantities",
      description:
        "Importing https://www.seriouseats.com/... brings in ingredient names but every quantity and unit is missing.",
    },
    b: {
      type: "bug",
      title: "Import from website: quantities missing",
      description:
        "Recipes imported via 'Add from link' have ingredients like 'flour', 'butter' with no amounts. Tried three different food blogs.",
    },
    same: true,
    note: "same import parser bug",
  },
  {
    a: {
      type: "bug",
      title: "Imported recipe from URL loses ingredient quantities",
      description: "Imported recipes from websites have no quantities.",
    },
    b: {
      type: "feature",
      title: "Import recipes from Instagram posts",
      description: "Let me paste an Instagram link and import the recipe from the caption.",
    },
    same: false,
    note: "bug vs new import source request",
  },
  {
    a: {
      type: "bug",
      title: "Strava sync uploads runs twice",
      description: "Every run recorded in Trailhead appears twice in Strava since v4.2.",
    },
    b: {
      type: "bug",
      title: "Duplicate activities on Strava",
      description:
        "After updating Trailhead to 4.2, each workout is posted to Strava two times a few seconds apart.",
    },
    same: true,
    note: "same duplicate upload",
  },
  {
    a: {
      type: "bug",
      title: "Strava sync uploads runs twice",
      description: "Every run recorded in Trailhead appears twice in Strava since v4.2.",
    },
    b: {
      type: "bug",
      title: "Garmin sync imports runs twice",
      description:
        "Runs imported from Garmin Connect into Trailhead show up twice in the Trailhead feed (Garmin to Trailhead direction).",
    },
    same: false,
    note: "different integration and direction",
  },
  {
    a: {
      type: "bug",
      title: "GPS distance too short on Android",
      description:
        "Runs recorded on Android with battery saver on show about 20% shorter distance than the course.",
    },
    b: {
      type: "bug",
      title: "GPS distance too long on Apple Watch",
      description:
        "Apple Watch recordings add ~300 m per 5k because of GPS drift while acquiring signal at the start.",
    },
    same: false,
    note: "different device and direction",
  },
  {
    a: {
      type: "bug",
      title: "Heart rate not saved from Apple Watch",
      description:
        "Workouts recorded on Apple Watch (watchOS 10.4) show no HR graph in the iPhone app, though the watch displayed HR live.",
    },
    b: {
      type: "bug",
      title: "HR data missing after watch workout",
      description:
        "watch shows my heart rate during the run but afterwards the workout summary on phone says 'No heart rate data'. Series 8, watchOS 10.4, Trailhead 4.2.",
    },
    same: true,
    note: "same HR sync loss",
  },
  {
    a: {
      type: "bug",
      title: "Pace shows min/km despite miles setting",
      description: "Units are set to Miles, but the run summary shows pace as min/km and distance in km.",
    },
    b: {
      type: "bug",
      title: "Units setting ignored on run summary",
      description:
        "I switched to imperial in settings; the live screen shows miles but the post-run summary still uses kilometers.",
    },
    same: true,
    note: "same summary ignoring unit setting",
  },
  {
    a: {
      type: "bug",
      title: "Pace shows min/km despite miles setting",
      description: "Run summary on the phone shows km although units are Miles.",
    },
    b: {
      type: "bug",
      title: "Apple Watch app ignores unit setting",
      description:
        "On the watch, distance is in miles even though the phone is set to km; the phone app itself shows km correctly.",
    },
    same: false,
    note: "phone summary vs watch app not syncing preference",
  },
  {
    a: {
      type: "feedback",
      title: "Onboarding step 'Connect data source' is confusing",
      description:
        "The checklist asks for an ingest key but doesn't say where to find it; I had to search the docs.",
      metadata: { url: "https://app.metricly.io/onboarding" },
    },
    b: {
      type: "feedback",
      title: "Got stuck during setup",
      description:
        "Couldn't figure out where the key for connecting my data comes from. A link to Settings > Keys right in that onboarding step would help.",
      metadata: { url: "https://app.metricly.io/onboarding" },
    },
    same: true,
    note: "same onboarding gap, different wording",
  },
  {
    a: {
      type: "feedback",
      title: "Onboarding step 'Connect data source' is confusing",
      description: "The checklist doesn't say where to find the ingest key.",
      metadata: { url: "https://app.metricly.io/onboarding" },
    },
    b: {
      type: "feedback",
      title: "Onboarding checklist too long",
      description: "Nine steps before seeing any chart is too many; let me skip to a demo dashboard.",
      metadata: { url: "https://app.metricly.io/onboarding" },
    },
    same: false,
    note: "same onboarding, different complaint",
  },
  {
    a: {
      type: "feedback",
      title: "Pricing is confusing",
      description: "Not clear whether the Team price is per seat or per workspace.",
      metadata: { url: "https://kanbo.io/pricing" },
    },
    b: {
      type: "feedback",
      title: "Pricing is confusing",
      description: "The Pro plan lists 'unlimited automations' but the FAQ says 250 runs per month.",
      metadata: { url: "https://kanbo.io/pricing" },
    },
    same: false,
    note: "identical title, different pricing ambiguity",
  },
  {
    a: {
      type: "bug",
      title: "Can't remove last item from basket",
      description:
        "Clicking the trash icon on the only item in the cart does nothing; with two items it works.",
      metadata: { url: "https://shop.lumenwear.com/cart" },
    },
    b: {
      type: "bug",
      title: "Delete button broken when cart has one product",
      description:
        "If there's a single product in my bag the remove (bin) icon is dead. Add a second product and both can be removed.",
      metadata: { url: "https://shop.lumenwear.com/cart" },
    },
    same: true,
    note: "same single-item removal bug, few shared words",
  },
  {
    a: {
      type: "bug",
      title: "Customer portal cancels subscription immediately instead of at period end",
      description:
        "Subscriptions cancelled through the hosted customer portal get status canceled at once, even though portal settings say 'cancel at period end'.",
    },
    b: {
      type: "bug",
      title: "Cancel in billing portal ends access right away",
      description:
        "Our customers who cancel via the Paystride portal lose access the same day instead of at the end of the month they paid for.",
    },
    same: true,
    note: "same portal cancellation mode bug",
  },
  {
    a: {
      type: "bug",
      title: "Okta SSO fails with 'Audience mismatch'",
      description:
        "SAML login via Okta returns 'Audience mismatch: expected urn:authwell:acme' since we moved to the custom domain auth.acme.com.",
      metadata: { url: "https://auth.acme.com/sso/saml" },
    },
    b: {
      type: "bug",
      title: "SSO broken after switching to custom domain",
      description:
        "After configuring auth.acme.com as our custom login domain, every SAML sign-in fails; the error page mentions the audience / entity ID.",
      metadata: { url: "https://auth.acme.com/sso/saml" },
    },
    same: true,
    note: "same entity ID mismatch after custom domain",
  },
];
