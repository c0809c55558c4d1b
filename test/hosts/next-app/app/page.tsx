// A server component: calls the handler directly, no HTTP.
import { greeter } from '../handlers';
import { ClientGreeting } from './client-greeting';

export const dynamic = 'force-dynamic';

export default async function Page() {
  const greeting: string = await greeter.greet('server');
  return (
    <main>
      <p id="server">{greeting}</p>
      <ClientGreeting />
    </main>
  );
}
