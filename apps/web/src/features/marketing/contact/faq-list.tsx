import { FAQ } from './faq-data.ts';

/** Native disclosure widgets: each item opens and closes on its own, with keyboard and screen-reader support built in. */
export function FaqList() {
  return (
    <div className="faq">
      {FAQ.map((item) => (
        <details key={item.question} className="faq__item">
          <summary className="faq__question">{item.question}</summary>
          <p className="faq__answer">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}
