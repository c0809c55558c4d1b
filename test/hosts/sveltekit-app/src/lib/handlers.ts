// The handlers, typed by the IDL.
import { type GreeterService, NameTooLongError } from './greeter.idl';

export const greeter: GreeterService = {
  greet(name) {
    if (name.length > 20) throw new NameTooLongError();
    return `Hello, ${name}!`;
  },
};
