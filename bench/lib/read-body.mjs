/** The bench servers' one way of reading a request body, so every server pays the same for it. */

/** Reads the whole request body as a string. */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
