import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';

/** The closing call to action shared by the public pages. */
export function CtaBand({ title, text }: { title: string; text: string }) {
  return (
    <section className="section section--dark cta-band" aria-labelledby="cta-title">
      <div className="container cta-band__inner">
        <div>
          <h2 id="cta-title">{title}</h2>
          <p>{text}</p>
        </div>
        <Link className="btn btn--light" to={paths.contactUs}>
          Contact Us
        </Link>
      </div>
    </section>
  );
}
