import { Provider } from 'react-redux';
import { Outlet } from 'react-router';
import { store } from './store/store.ts';
import './styles/portal.css';

/** Everything under /login and /dashboard shares the portal's store and styles. */
export function PortalShell() {
  return (
    <Provider store={store}>
      <div className="portal">
        <Outlet />
      </div>
    </Provider>
  );
}
