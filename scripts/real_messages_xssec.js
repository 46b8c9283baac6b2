const xssec = require('@sap/xssec');
const creds = {clientid:'sb-demo!t1', clientsecret:'s', url:'https://demo.authentication.eu10.hana.ondemand.com', uaadomain:'authentication.eu10.hana.ondemand.com', xsappname:'demo!t1'};
const svc = new xssec.XsuaaService(creds);
const b64 = o => Buffer.from(JSON.stringify(o)).toString('base64url');
const tries = {
  'garbage': 'not-a-jwt',
  'no-kid': b64({alg:'RS256'})+'.'+b64({exp: 1, iss:'x'})+'.sig',
  'expired': b64({alg:'RS256', jku:'https://demo.authentication.eu10.hana.ondemand.com/token_keys', kid:'k1'})+'.'+b64({exp: 1000, iat: 900, client_id:'x', zid:'z', iss:'https://demo.authentication.eu10.hana.ondemand.com/oauth/token'})+'.sig',
  'wrong-jku': b64({alg:'RS256', jku:'https://evil.example.com/token_keys', kid:'k1'})+'.'+b64({exp: 9999999999, client_id:'x', zid:'z'})+'.sig',
  'empty': '',
};
(async () => {
 for (const [k, jwt] of Object.entries(tries)) {
  try { await xssec.createSecurityContext(svc, { jwt }); console.log('OK', k) } catch (e) { console.log(`ERR|${k}|${e.name}: ${e.message}`) }
 }
 try { new xssec.XsuaaService({}) } catch (e) { console.log(`ERR|no-credentials|${e.name}: ${e.message}`) }
 try { await xssec.createSecurityContext(svc, {}) } catch (e) { console.log(`ERR|no-jwt|${e.name}: ${e.message}`) }
})();
(async () => {
 await new Promise(r => setTimeout(r, 500));
 const jwt = b64({alg:'RS256', jku:'https://demo.authentication.eu10.hana.ondemand.com/token_keys', kid:'k1'})+'.'+b64({exp: 9999999999, client_id:'sb-demo!t1', aud:['sb-demo!t1'], azp:'sb-demo!t1', zid:'z', iss:'https://demo.authentication.eu10.hana.ondemand.com/oauth/token', ext_attr:{enhancer:'XSUAA'}})+'.sig';
 try { await xssec.createSecurityContext(svc, { jwt }); console.log('OK') } catch (e) { console.log(`ERR|signature-keys-unreachable|${e.name}: ${e.message}`) }
})();

// IAS tokens and XSUAA tokens with a header or validity problem
const ias = new xssec.IdentityService({ clientid: 'ias-client', clientsecret: 's', url: 'https://demo.accounts.ondemand.com', domains: ['accounts.ondemand.com'] });
const xs = new xssec.XsuaaService({clientid:'sb-demo!t1', clientsecret:'s', url:'https://demo.authentication.eu10.hana.ondemand.com', uaadomain:'authentication.eu10.hana.ondemand.com', xsappname:'demo!t1'});
const future = 9999999999;
const tries2 = [
  ['ias-untrusted-issuer', ias, b64({alg:'RS256',kid:'k'})+'.'+b64({iss:'https://evil.example.com', aud:['ias-client'], exp: future})+'.sig'],
  ['ias-no-issuer', ias, b64({alg:'RS256',kid:'k'})+'.'+b64({aud:['ias-client'], exp: future})+'.sig'],
  ['ias-wrong-audience', ias, b64({alg:'RS256',kid:'k'})+'.'+b64({iss:'https://demo.accounts.ondemand.com', aud:['other'], exp: future})+'.sig'],
  ['xsuaa-not-yet-valid', xs, b64({alg:'RS256',kid:'k',jku:'https://demo.authentication.eu10.hana.ondemand.com/token_keys'})+'.'+b64({client_id:'sb-demo!t1',aud:['sb-demo!t1'], exp: future, nbf: future-10, zid:'z'})+'.sig'],
  ['xsuaa-no-kid', xs, b64({alg:'RS256'})+'.'+b64({client_id:'sb-demo!t1',aud:['sb-demo!t1'], exp: future, zid:'z'})+'.sig'],
];
(async () => { await new Promise(r => setTimeout(r, 1500)); for (const [k, svc, jwt] of tries2) { try { await xssec.createSecurityContext(svc, { jwt }); console.log('OK', k) } catch (e) { console.log(`ERR|${k}|${e.name}: ${String(e.message).replace(/\n/g,' ')}`) } } })();
