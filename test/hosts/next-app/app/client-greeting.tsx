'use client';
// A client component: calls the endpoint over HTTP with the generated client.
import { useEffect, useState } from 'react';
import { HttpTransport } from 'unplugin-idl-rpc/runtime/client';
import { GreeterServiceClient } from '../greeter.idl';

export function ClientGreeting() {
  const [greeting, setGreeting] = useState('');
  useEffect(() => {
    const client = new GreeterServiceClient(new HttpTransport(`${window.location.origin}/rpc`));
    client.greet('browser').then((text: string) => setGreeting(text));
  }, []);
  return <p id="client">{greeting}</p>;
}
