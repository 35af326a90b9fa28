"""Misleading on an unseen app (probe 17's read of kimai, an app in no data set): "How are invoices generated?"
opened on "`InvoiceService.createModelWithoutEntries` is the closest match found: `throw new \\Exception('Please adjust
your invoice template, the number generator is…')`", chosen because the error message holds the question's words.
A raising line's message counts only for a question about errors. (Two long lines of the fixture are wrapped.)
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import KeyLine, question_terms
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.quoted_line import best_line
from codeqa.records import Chunk, Hit
from codeqa.retrieve.question import Question

PATH = "src/Invoice/InvoiceService.php"
CREATE = r"""    private function createModelWithoutEntries(InvoiceQuery $query): InvoiceModel
    {
        $customer = $query->getCustomer();
        if ($customer === null) {
            throw new \Exception('Cannot create invoice model without customer');
        }

        $template = $query->getTemplate();

        if ($query->isAllowTemplateOverwrite() && $customer->hasInvoiceTemplate()) {
            $template = $customer->getInvoiceTemplate();
        }

        if (null === $template) {
            throw new \Exception('Cannot create invoice model without template');
        }

        $formatter = new DefaultInvoiceFormatter($this->formatter, $template->getLanguage());

        $model = $this->invoiceModelFactory->createModel(
            $formatter,
            $customer,
            $template,
            $query
        );

        if ($query->getInvoiceDate() !== null) {
            $model->setInvoiceDate($query->getInvoiceDate());
        }

        if (null !== $query->getCurrentUser()) {
            $model->setUser($query->getCurrentUser());
        }

        $generator = $this->getNumberGeneratorByName($template->getNumberGenerator());
        if (null === $generator) {
            throw new \Exception('Please adjust your invoice template, the number generator is invalid: '
                . $template->getNumberGenerator());
        }

        $calculator = $this->getCalculatorByName($template->getCalculator());
        if (null === $calculator) {
            throw new \Exception('Please adjust your invoice template, the sum calculator is invalid: '
                . $template->getCalculator());
        }

        $model->setCalculator($calculator);
        $model->setNumberGenerator($generator);

        return $model;
    }"""


def _opening_line(question: str) -> str:
    chunk = Chunk(PATH, "php", 395, 443, CREATE, "InvoiceService.createModelWithoutEntries", "method", "service")
    lines = [KeyLine(395 + n, line.rstrip()) for n, line in enumerate(CREATE.split("\n"))
             if line.strip() and not line.strip().startswith(("//", "*", "/*"))]  # fmt: skip
    parsed = Question.parse(question)
    line = best_line(Step(1, Hit(chunk, 1.0, chunk.id), "method", lines, ""), question_terms(parsed), parsed.intents)
    assert line is not None
    return line.text


def test_an_error_message_does_not_say_how_a_thing_is_made() -> None:
    assert "throw new" not in _opening_line("How are invoices generated?")


def test_an_error_message_answers_a_question_about_errors() -> None:
    assert "throw new" in _opening_line("What happens when invoice generation fails with an invalid number generator?")
