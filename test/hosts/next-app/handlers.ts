// The handlers, typed by the IDL: the route handler serves them and the server component calls them directly.
import { type GreeterService, NameTooLongError } from './greeter.idl';

export const greeter: GreeterService = {
  greet(name) {
    if (name.length > 20) throw new NameTooLongError();
    return `Hello, ${name}!`;
  },
};
