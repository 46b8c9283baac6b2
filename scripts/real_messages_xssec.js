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
