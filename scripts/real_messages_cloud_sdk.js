const { executeHttpRequest } = require('@sap-cloud-sdk/http-client');
const { getDestination, useOrFetchDestination } = require('@sap-cloud-sdk/connectivity');
const b64 = o => Buffer.from(JSON.stringify(o)).toString('base64url');
(async () => {
  const run = async (k, f) => { try { await f(); console.log('OK', k) } catch (e) { let m = `${e.name}: ${e.message}`; if (e.cause) m += ` Caused by: ${e.cause.message}`; console.log(`ERR|${k}|${m.replace(/\n/g, ' ')}`) } };
  await run('destination-name-no-binding', () => executeHttpRequest({ destinationName: 'NORTHWIND' }, { method: 'get', url: '/x' }));
  await run('get-destination-no-binding', () => getDestination({ destinationName: 'NORTHWIND' }));
  process.env.destinations = '[{"name":"OTHER","url":"http://127.0.0.1:1"}]';
  await run('destination-env-missing-name', () => executeHttpRequest({ destinationName: 'NORTHWIND' }, { method: 'get', url: '/x' }));
  await run('connection-refused', () => executeHttpRequest({ destinationName: 'OTHER' }, { method: 'get', url: '/x' }));
  process.env.destinations = '[{"name":"BROKEN"}]';
  await run('destination-without-url', () => executeHttpRequest({ destinationName: 'BROKEN' }, { method: 'get', url: '/x' }));
  process.env.destinations = 'not json';
  await run('destinations-env-not-json', () => executeHttpRequest({ destinationName: 'NORTHWIND' }, { method: 'get', url: '/x' }));
  delete process.env.destinations;
  await run('jwt-invalid', () => getDestination({ destinationName: 'NORTHWIND', jwt: 'garbage' }));
  await run('no-destination-given', () => executeHttpRequest({}, { method: 'get', url: '/x' }));
  process.env.VCAP_SERVICES = JSON.stringify({ destination: [{ name: 'dest', label: 'destination', tags: ['destination'], credentials: { clientid: 'c', clientsecret: 's', uri: 'http://127.0.0.1:1', url: 'http://127.0.0.1:1' } }], xsuaa: [{ name: 'uaa', label: 'xsuaa', tags: ['xsuaa'], credentials: { clientid: 'c', clientsecret: 's', url: 'http://127.0.0.1:1', xsappname: 'x' } }] });
  await run('destination-service-token-failed', () => getDestination({ destinationName: 'NORTHWIND' }));
  const jwt = b64({alg:'RS256'}) + '.' + b64({exp: 9999999999, zid: 'z', iss: 'http://127.0.0.1:1', user_id: 'u'}) + '.sig';
  await run('destination-with-user-jwt', () => getDestination({ destinationName: 'NORTHWIND', jwt }));
  // destinations from the environment whose authentication or proxy settings do not fit
  delete process.env.VCAP_SERVICES;

  const run2 = async (k, dest) => { process.env.destinations = JSON.stringify(dest); try { await executeHttpRequest({ destinationName: dest[0].name }, { method: 'get', url: '/x', timeout: 3000 }); console.log('OK', k) } catch (e) { let m = `${e.name}: ${e.message}`; if (e.cause) m += ` Caused by: ${e.cause.message}`; console.log(`ERR|${k}|${m.replace(/\n/g, ' ')}`) } };
  await run2('onpremise-no-connectivity', [{ name: 'ERP', url: 'http://erp.internal:443', proxyType: 'OnPremise', authentication: 'BasicAuthentication', username: 'u', password: 'p' }]);
  await run2('basic-without-password', [{ name: 'B', url: 'http://127.0.0.1:9', authentication: 'BasicAuthentication', username: 'u' }]);
  await run2('principal-propagation-no-jwt', [{ name: 'PP', url: 'http://erp.internal', proxyType: 'OnPremise', authentication: 'PrincipalPropagation' }]);
  await run2('unknown-host', [{ name: 'H', url: 'http://nothere.invalid' }]);
  await run2('oauth-client-credentials-no-token-url', [{ name: 'O', url: 'http://127.0.0.1:9', authentication: 'OAuth2ClientCredentials', clientId: 'c', clientSecret: 's' }]);
})();
