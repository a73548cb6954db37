// tinyxml2-driver.cpp -- the corpus workload for TinyXML-2: builds a
// document of N items, prints it, then R times parses the text, sums
// attributes through queries, removes every third item and prints again.
//   xmldriver N R
#include <cstdio>
#include <cstdlib>
#include <string>
#include "tinyxml2.h"

using namespace tinyxml2;

static std::string build(int n)
{
	XMLDocument doc;
	XMLElement *root = doc.NewElement("catalog");
	doc.InsertFirstChild(root);
	for (int i = 0; i < n; i++) {
		XMLElement *item = doc.NewElement("item");
		item->SetAttribute("id", i);
		item->SetAttribute("price", i * 0.25);
		item->SetAttribute("name", ("thing & \"" + std::to_string(i) + "\"").c_str());
		XMLElement *note = doc.NewElement("note");
		note->SetText(("<note> number " + std::to_string(i * 7 % 1000)).c_str());
		item->InsertEndChild(note);
		root->InsertEndChild(item);
	}
	XMLPrinter printer;
	doc.Print(&printer);
	return printer.CStr();
}

static double query_and_edit(const std::string &text, std::string *again)
{
	XMLDocument doc;
	if (doc.Parse(text.c_str(), text.size()) != XML_SUCCESS)
		exit(1);
	double sum = 0;
	XMLElement *root = doc.FirstChildElement("catalog");
	int k = 0;
	for (XMLElement *item = root->FirstChildElement("item"); item;) {
		XMLElement *next = item->NextSiblingElement("item");
		sum += item->IntAttribute("id") + item->DoubleAttribute("price");
		const char *note = item->FirstChildElement("note")->GetText();
		sum += note ? std::string(note).size() : 0;
		if (k++ % 3 == 0)
			root->DeleteChild(item);
		item = next;
	}
	XMLPrinter printer(nullptr, true);
	doc.Print(&printer);
	*again = printer.CStr();
	return sum;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, rounds = argc > 2 ? atoi(argv[2]) : 1;
	std::string text = build(n), again;
	double sum = 0;
	for (int r = 0; r < rounds; r++)
		sum += query_and_edit(text, &again);
	printf("%zu bytes, %zu after editing, sum %.2f\n", text.size(), again.size(), sum);
	return 0;
}
